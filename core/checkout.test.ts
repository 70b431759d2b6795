import { describe, expect, it } from 'vitest';
import {
  addressLine,
  CHECKOUT_FIELDS,
  CHECKOUT_MAX_LENGTH,
  CHECKOUT_TEXT,
  collapseWhitespace,
  isEmailShaped,
  sameCity,
  savedAddressCityMismatch,
  validateCheckout,
  type CheckoutForm,
} from './checkout';

const valid = {
  firstname: 'Анна',
  lastname: 'Иванова',
  secondname: '',
  phone: '+7 (999) 123-45-67',
  email: 'Anna@Example.RU',
  city: 'Москва',
  delivery_id: '1',
  street: 'ул Тверская',
  house: '12',
  flat: '5',
  postcode: '125009',
  comment: '',
  code_pvz: '',
  payment_id: '9',
};

function errorsOf(fields: Record<string, string | undefined>): Record<string, string> {
  const r = validateCheckout(fields);
  return r.ok ? {} : r.errors;
}

function valueOf(fields: Record<string, string | undefined>): CheckoutForm {
  const r = validateCheckout(fields);
  if (!r.ok) throw new Error(`unexpected errors: ${JSON.stringify(r.errors)}`);
  return r.value;
}

describe('CHECKOUT_TEXT', () => {
  it('has the SPEC §8 server error exactly', () => {
    expect(CHECKOUT_TEXT.serverError).toBe('Произошла ошибка на сервере. Пожалуйста, попробуйте позже.');
  });
  it('has the texts the API shows', () => {
    expect(CHECKOUT_TEXT.emptyBasket).toBe('Корзина пуста');
    expect(CHECKOUT_TEXT.deliveryNotForCity).toBe('Этот способ доставки недоступен для выбранного города');
    expect(CHECKOUT_TEXT.pointNotInCity).toBe('Пункт выдачи не найден в выбранном городе');
    expect(CHECKOUT_TEXT.paymentNotForDelivery).toBe('Этот способ оплаты недоступен для выбранной доставки');
    expect(CHECKOUT_TEXT.deliveryCostChanged).toBe(
      'Стоимость доставки изменилась: проверьте сумму и подтвердите заказ ещё раз',
    );
  });
  it('limits every field', () => {
    for (const name of CHECKOUT_FIELDS) expect(CHECKOUT_MAX_LENGTH[name]).toBeGreaterThan(0);
    expect(CHECKOUT_MAX_LENGTH).toMatchObject({
      firstname: 50,
      lastname: 50,
      secondname: 50,
      street: 200,
      house: 20,
      flat: 20,
      postcode: 10,
      comment: 500,
      email: 254,
      city: 100,
    });
  });
});

describe('validateCheckout: a valid form', () => {
  it('gives the trimmed, typed form', () => {
    expect(valueOf(valid)).toEqual({
      firstname: 'Анна',
      lastname: 'Иванова',
      secondname: '',
      phone: '79991234567',
      email: 'anna@example.ru',
      city: 'Москва',
      deliveryId: '1',
      street: 'ул Тверская',
      house: '12',
      flat: '5',
      postcode: '125009',
      comment: '',
      pickupPoint: '',
      paymentId: '9',
    });
  });
  it('collapses whitespace and ignores unknown fields', () => {
    const v = valueOf({
      ...valid,
      firstname: '  Анна  Мария ',
      street: ' ул\tТверская\n ',
      city: ' Москва ',
      extra: 'x',
    });
    expect(v.firstname).toBe('Анна Мария');
    expect(v.street).toBe('ул Тверская');
    expect(v.city).toBe('Москва');
    expect(v).not.toHaveProperty('extra');
  });
  it('a comment keeps single line breaks', () => {
    expect(valueOf({ ...valid, comment: '  Позвоните\r\n\r\n\r\n  за час   до  приезда \n' }).comment).toBe(
      'Позвоните\n\nза час до приезда',
    );
  });
  it('absent optional fields are empty', () => {
    const v = valueOf({
      ...valid,
      lastname: undefined,
      secondname: undefined,
      house: undefined,
      flat: undefined,
      postcode: undefined,
      comment: undefined,
    });
    expect([v.lastname, v.secondname, v.house, v.flat, v.postcode, v.comment]).toEqual(['', '', '', '', '', '']);
  });
});

describe('validateCheckout: required fields', () => {
  it('an empty form names every required field', () => {
    expect(errorsOf({})).toEqual({
      firstname: CHECKOUT_TEXT.firstnameRequired,
      phone: CHECKOUT_TEXT.phoneRequired,
      email: CHECKOUT_TEXT.emailRequired,
      city: CHECKOUT_TEXT.cityRequired,
      delivery_id: CHECKOUT_TEXT.deliveryRequired,
      payment_id: CHECKOUT_TEXT.paymentRequired,
    });
  });
  it('whitespace-only values are empty', () => {
    const errors = errorsOf({ ...valid, firstname: '   ', phone: ' \t', email: '\n', city: '  ', street: '   ' });
    expect(errors).toEqual({
      firstname: 'Укажите имя',
      phone: 'Укажите телефон',
      email: 'Укажите e-mail: на него придёт чек',
      city: 'Укажите город',
      street: 'Укажите улицу и дом',
    });
  });
  it('only firstname of the names is required', () => {
    expect(errorsOf({ ...valid, lastname: '  ', secondname: '' })).toEqual({});
  });
});

describe('validateCheckout: names', () => {
  it('names take letters, spaces, hyphens and apostrophes', () => {
    expect(errorsOf({ ...valid, firstname: 'Анна-Мария', lastname: "Д'Артаньян", secondname: 'Петровна' })).toEqual({});
    expect(errorsOf({ ...valid, firstname: 'Anne' })).toEqual({});
  });
  it('refuses markup and digits', () => {
    expect(errorsOf({ ...valid, firstname: '<b>Анна</b>' })).toEqual({ firstname: CHECKOUT_TEXT.badName });
    expect(errorsOf({ ...valid, lastname: 'Иванова2' })).toEqual({ lastname: CHECKOUT_TEXT.badName });
    expect(errorsOf({ ...valid, secondname: '-' })).toEqual({ secondname: CHECKOUT_TEXT.badName });
  });
  it('at most 50 characters', () => {
    expect(errorsOf({ ...valid, firstname: 'А'.repeat(50) })).toEqual({});
    expect(errorsOf({ ...valid, firstname: 'А'.repeat(51) })).toEqual({ firstname: CHECKOUT_TEXT.longField });
    expect(errorsOf({ ...valid, lastname: 'Б'.repeat(51), secondname: 'В'.repeat(51) })).toEqual({
      lastname: 'Слишком длинное значение',
      secondname: 'Слишком длинное значение',
    });
  });
});

describe('validateCheckout: phone', () => {
  it('stores the digits of a Russian number as 7XXXXXXXXXX', () => {
    expect(valueOf({ ...valid, phone: '8 (999) 123-45-67' }).phone).toBe('79991234567');
    expect(valueOf({ ...valid, phone: '9991234567' }).phone).toBe('79991234567');
  });
  it('keeps a foreign number as digits', () => {
    expect(valueOf({ ...valid, phone: '+375 29 123-45-67' }).phone).toBe('375291234567');
  });
  it('refuses what is not a phone', () => {
    for (const phone of ['123', '+7 (999) 123-45', 'телефон', '0123456789'])
      expect(errorsOf({ ...valid, phone })).toEqual({ phone: CHECKOUT_TEXT.badPhone });
  });
  it('refuses an over-long value', () => {
    expect(errorsOf({ ...valid, phone: `+7 999 123 45 67${' x'.repeat(20)}` })).toEqual({
      phone: CHECKOUT_TEXT.longField,
    });
  });
});

describe('validateCheckout: e-mail', () => {
  it('is lower-cased', () => {
    expect(valueOf({ ...valid, email: ' Anna.Ivanova+shop@Mail.RU ' }).email).toBe('anna.ivanova+shop@mail.ru');
  });
  it('refuses bad shapes', () => {
    for (const email of [
      'anna',
      'anna@',
      '@mail.ru',
      'anna@mail',
      'anna@@mail.ru',
      'an na@mail.ru',
      'anna@mail..ru',
      '.anna@mail.ru',
      'anna.@mail.ru',
      'an..na@mail.ru',
      'anna@-mail.ru',
      'anna@mail.r',
      'anna@mail.ru.',
      '<anna>@mail.ru',
    ]) {
      expect(errorsOf({ ...valid, email }), email).toEqual({ email: CHECKOUT_TEXT.badEmail });
    }
  });
  it('accepts ordinary addresses, Cyrillic domains included', () => {
    for (const email of ['a@b.co', 'anna_i-1@sub.mail.ru', 'anna@почта.рф', "o'neil@example.com"])
      expect(isEmailShaped(email), email).toBe(true);
  });
  it('at most 254 characters', () => {
    const long = `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.ru`;
    expect(long.length).toBeGreaterThan(254);
    expect(errorsOf({ ...valid, email: long })).toEqual({ email: CHECKOUT_TEXT.longField });
  });
});

describe('validateCheckout: city', () => {
  it('at most 100 characters', () => {
    expect(errorsOf({ ...valid, city: 'М'.repeat(101) })).toEqual({ city: CHECKOUT_TEXT.longField });
  });
});

describe('validateCheckout: delivery', () => {
  it('an unknown delivery id reads as none chosen', () => {
    expect(errorsOf({ ...valid, delivery_id: '999' })).toEqual({ delivery_id: CHECKOUT_TEXT.deliveryRequired });
    expect(errorsOf({ ...valid, delivery_id: ' ' })).toEqual({ delivery_id: CHECKOUT_TEXT.deliveryRequired });
  });
  it('the Moscow courier and CDEK door need a street', () => {
    for (const delivery_id of ['1', '137']) {
      expect(errorsOf({ ...valid, delivery_id, street: '' })).toEqual({ street: CHECKOUT_TEXT.streetRequired });
      expect(errorsOf({ ...valid, delivery_id, house: '' })).toEqual({});
    }
  });
  it('a 10 000-character street is refused', () => {
    expect(errorsOf({ ...valid, street: 'ул '.repeat(3334) })).toEqual({ street: CHECKOUT_TEXT.longField });
    expect(errorsOf({ ...valid, street: 'у'.repeat(10_000) })).toEqual({ street: 'Слишком длинное значение' });
    expect(errorsOf({ ...valid, street: 'у'.repeat(200) })).toEqual({});
  });
  it('lengths count characters, not UTF-16 units', () => {
    expect(errorsOf({ ...valid, comment: '👗'.repeat(500) })).toEqual({});
    expect(errorsOf({ ...valid, comment: '👗'.repeat(501) })).toEqual({ comment: CHECKOUT_TEXT.longField });
  });
  it('house, flat, postcode and comment limits', () => {
    expect(
      errorsOf({
        ...valid,
        house: '1'.repeat(21),
        flat: '2'.repeat(21),
        postcode: '1'.repeat(11),
        comment: 'к'.repeat(501),
      }),
    ).toEqual({
      house: CHECKOUT_TEXT.longField,
      flat: CHECKOUT_TEXT.longField,
      postcode: CHECKOUT_TEXT.longField,
      comment: CHECKOUT_TEXT.longField,
    });
  });
  it('a postcode is letters, digits, spaces and hyphens', () => {
    for (const postcode of ['125009', 'SW1A 1AA', '00-950'])
      expect(errorsOf({ ...valid, postcode }), postcode).toEqual({});
    for (const postcode of ['<b>', '12;34', '-1234'])
      expect(errorsOf({ ...valid, postcode }), postcode).toEqual({ postcode: CHECKOUT_TEXT.badPostcode });
  });
  it('a pickup point replaces the street for CDEK pickup', () => {
    const v = valueOf({ ...valid, delivery_id: '139', street: '', house: '', flat: '', code_pvz: ' MSK123 ' });
    expect(v.deliveryId).toBe('139');
    expect(v.pickupPoint).toBe('MSK123');
  });
  it('pickup without code_pvz is refused', () => {
    expect(errorsOf({ ...valid, delivery_id: '139', street: '', code_pvz: '' })).toEqual({
      code_pvz: CHECKOUT_TEXT.pointRequired,
    });
    expect(errorsOf({ ...valid, delivery_id: '139', code_pvz: undefined })).toEqual({
      code_pvz: 'Выберите пункт выдачи',
    });
  });
  it('a pickup code is kept only for pickup', () => {
    expect(valueOf({ ...valid, delivery_id: '137', code_pvz: 'MSK123' }).pickupPoint).toBe('');
  });
  it('international delivery needs the foreign address in street', () => {
    expect(errorsOf({ ...valid, city: 'Другая страна', delivery_id: '200', street: '' })).toEqual({
      street: CHECKOUT_TEXT.foreignAddressRequired,
    });
    const v = valueOf({
      ...valid,
      city: 'Другая страна',
      delivery_id: '200',
      street: 'Germany, Berlin, Unter den Linden 1',
      house: '',
      flat: '',
      postcode: '10117',
    });
    expect(v.street).toBe('Germany, Berlin, Unter den Linden 1');
  });
});

describe('validateCheckout: payment', () => {
  it('payment_id must be set and known', () => {
    expect(errorsOf({ ...valid, payment_id: '' })).toEqual({ payment_id: CHECKOUT_TEXT.paymentRequired });
    expect(errorsOf({ ...valid, payment_id: '7' })).toEqual({ payment_id: 'Выберите способ оплаты' });
    expect(valueOf({ ...valid, payment_id: '1' }).paymentId).toBe('1');
  });
  it('does not judge which payment goes with which delivery (the API does)', () => {
    expect(valueOf({ ...valid, delivery_id: '139', code_pvz: 'MSK1', payment_id: '1' }).paymentId).toBe('1');
  });
});

describe('collapseWhitespace', () => {
  it('collapses runs, drops control characters and trims', () => {
    expect(collapseWhitespace('  a \t\n b\u0000c  ')).toBe('a bc');
    expect(collapseWhitespace('\u00a0a\u00a0\u00a0b\u00a0')).toBe('a b');
  });
});

describe('addressLine', () => {
  it('writes one Russian line', () => {
    expect(addressLine({ city: 'Москва', street: 'ул Тверская', house: '12', flat: '5', postcode: '125009' })).toBe(
      'Москва, ул Тверская, д. 12, кв. 5, 125009',
    );
  });
  it('skips empty parts', () => {
    expect(addressLine({ city: 'Москва', street: 'ул Тверская', house: '12', flat: '', postcode: '' })).toBe(
      'Москва, ул Тверская, д. 12',
    );
    expect(addressLine({ city: 'Москва', street: 'ул Тверская, 12', house: ' ', flat: '', postcode: '125009' })).toBe(
      'Москва, ул Тверская, 12, 125009',
    );
    expect(addressLine({ city: '', street: '', house: '', flat: '', postcode: '' })).toBe('');
  });
  it('does not double the house or flat prefix', () => {
    expect(addressLine({ city: 'Москва', street: 'ул Тверская', house: 'д. 12', flat: 'кв. 5', postcode: '' })).toBe(
      'Москва, ул Тверская, д. 12, кв. 5',
    );
    expect(addressLine({ city: 'Москва', street: 'ул Тверская', house: 'дом 12', flat: 'офис 3', postcode: '' })).toBe(
      'Москва, ул Тверская, дом 12, офис 3',
    );
    expect(addressLine({ city: 'Москва', street: 'ул Тверская', house: '12 корп. 2', flat: '', postcode: '' })).toBe(
      'Москва, ул Тверская, д. 12 корп. 2',
    );
  });
});

describe('savedAddressCityMismatch (issue #26)', () => {
  const piter = { city: 'Санкт-Петербург', street: 'Невский пр', house: '28', flat: '7', postal_code: '191186' };
  const order = { city: 'Новосибирск', street: 'Невский пр', house: '28', flat: '7', postcode: '191186' };
  it('names the city of a saved address sent under another city', () => {
    expect(savedAddressCityMismatch(order, [piter])).toBe('Санкт-Петербург');
    expect(savedAddressCityMismatch({ ...order, street: ' невский  пр ' }, [piter])).toBe('Санкт-Петербург');
  });
  it('lets the saved address go to its own city, however the city is written', () => {
    expect(savedAddressCityMismatch({ ...order, city: 'г Санкт-Петербург' }, [piter])).toBeNull();
    // The same address saved for both cities: the order's city has it.
    expect(savedAddressCityMismatch(order, [piter, { ...piter, city: 'Новосибирск' }])).toBeNull();
  });
  it('lets any other address through: another house, flat or postcode is not the saved one', () => {
    expect(savedAddressCityMismatch({ ...order, house: '29' }, [piter])).toBeNull();
    expect(savedAddressCityMismatch({ ...order, flat: '' }, [piter])).toBeNull();
    expect(savedAddressCityMismatch({ ...order, postcode: '630099' }, [piter])).toBeNull();
    expect(savedAddressCityMismatch(order, [])).toBeNull();
  });
  it('compares cities by name', () => {
    expect(sameCity('г Москва', 'москва')).toBe(true);
    expect(sameCity('Москва', 'Новосибирск')).toBe(false);
    expect(sameCity('', '')).toBe(false);
  });
});
