import { sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { queryRows } from '~/db/client.server';

// A realistic set of past orders for the back office and its bench (`npm run seed -- --orders
// 100000`, issue #29): statuses, deliveries, payments and cities in plausible shares, spread over
// the last year, one to three lines each from the seeded offers. Bulk inserts by generate_series in
// batches (PGlite keeps a batch in memory). History orders: they take no stock and write no moves.

const BATCH = 10_000;

export async function seedOrders(
  db: Database,
  { orders: count, log = () => {} }: { orders: number; log?: (m: string) => void },
): Promise<number> {
  const [before] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from orders`);
  const have = Number(before?.n ?? 0);
  if (have >= count) return 0;
  const [offerCount] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from offers where not preorder and price_kopecks > 0`,
  );
  if (!offerCount?.n) throw new Error('seed the catalogue first: no offers to order');
  let made = 0;
  for (let start = have + 1; start <= count; start += BATCH) {
    const end = Math.min(count, start + BATCH - 1);
    await db.transaction(async (tx) => {
      const [first] = await queryRows<{ id: number }>(
        tx as unknown as Database,
        sql`select coalesce(max(id), 0)::int as id from orders`,
      );
      const from = Number(first?.id ?? 0);
      await tx.execute(sql`
        insert into orders (kind, status, phone, customer_name, email, items_total_kopecks, delivery_cost_kopecks, total_kopecks,
                            created_at, payment_id, delivery_id, delivery_city, delivery_address, paid_at, paid_kopecks, track_number)
        select 'checkout', s.status,
               '79' || lpad(((g::bigint * 7919 + 1234567) % 1000000000)::text, 9, '0'),
               (array['Анна','Мария','Елена','Ольга','Наталья','Ирина','Татьяна','Светлана','Дарья','Ксения','Алексей','Дмитрий'])[1 + g % 12]
                 || ' ' || (array['Иванова','Смирнова','Кузнецова','Попова','Соколова','Лебедева','Козлова','Новикова','Морозова','Волкова','Орлова'])[1 + (g / 12) % 11],
               'client' || g || '@example.ru',
               0, d.cost, d.cost,
               now() - (${count} - g) * interval '5 minutes' - (g % 97) * interval '1 second',
               p.id, d.id, c.city, c.city || ', ул. Тестовая, д. ' || (1 + g % 120),
               case when s.status in ('received', 'delivered') or (p.id <> '1' and s.status not in ('awaiting_payment', 'cancelled'))
                    then now() - (${count} - g) * interval '5 minutes' end,
               null,
               case when s.status in ('shipped', 'delivered', 'received') and d.id <> '1' then 'CDEK' || (10000000 + g) end
        from generate_series(${start}::int, ${end}::int) g
        cross join lateral (select (array['received','received','received','received','received','delivered','shipped','assembling',
                                          'confirmed','new','cancelled','awaiting_payment'])[1 + (hashint4(g) & 2147483647) % 12] as status) s
        cross join lateral (select (array['1','139','139','137','137','200'])[1 + (hashint4(g + 1000003) & 2147483647) % 6] as id,
                                   (array[0, 29000, 29000, 45000, 45000, 150000])[1 + (hashint4(g + 1000003) & 2147483647) % 6] as cost) d
        cross join lateral (select (array['1','9','9','9','10','11'])[1 + (hashint4(g + 2000003) & 2147483647) % 6] as id) p
        cross join lateral (select case when d.id = '1' then 'Москва'
                                   else (array['Москва','Санкт-Петербург','Казань','Новосибирск','Екатеринбург','Нижний Новгород','Самара','Краснодар'])[1 + (g / 6) % 8] end as city) c
      `);
      // One to three lines each, offers spread over the catalogue.
      await tx.execute(sql`
        with o as (select id from orders where id > ${from}),
             f as (select f.id, f.size, f.price_kopecks, p.name, row_number() over (order by f.id) - 1 as k, count(*) over () as n
                   from offers f join products p on p.id = f.product_id where not f.preorder and f.price_kopecks > 0)
        insert into order_items (order_id, offer_id, title, size, color, price_kopecks, quantity)
        select o.id, f.id, f.name, f.size, '', f.price_kopecks, 1 + (o.id % 2)
        from o cross join generate_series(0, (o.id % 3)) l
        join f on f.k = ((o.id::bigint * 131 + l * 7919) % f.n)
        on conflict do nothing
      `);
      await tx.execute(sql`
        update orders set items_total_kopecks = t.items, total_kopecks = t.items + orders.delivery_cost_kopecks,
               paid_kopecks = case when orders.paid_at is not null then t.items + orders.delivery_cost_kopecks end
        from (select order_id, sum(price_kopecks * quantity)::int as items from order_items where order_id > ${from} group by order_id) t
        where orders.id = t.order_id
      `);
      await tx.execute(sql`
        insert into order_status_history (order_id, status, created_at) select id, status, created_at from orders where id > ${from}
      `);
    });
    made += end - start + 1;
    log(`seed: orders ${end} of ${count}`);
  }
  await db.execute(sql`analyze orders`);
  return made;
}
