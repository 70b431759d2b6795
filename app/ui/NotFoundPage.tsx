import { Link } from 'react-router';

// SPEC §2: 'Ошибка 404', the outdated-link message and the 'На главную' button.
export function NotFoundPage() {
  return (
    <section className="not-found">
      <h1 className="not-found__title">Ошибка 404</h1>
      <p className="not-found__text">
        Возможно, ссылка устарела или страница была удалена. Проверьте адрес или начните с главной страницы.
      </p>
      <Link to="/" className="button">
        На главную
      </Link>
    </section>
  );
}
