import { describe, expect, it } from 'vitest';
import { CHECKOUT_TEXT } from '~/core/checkout';
import type { DeliveryCity, DeliveryMethod, SavedAddress } from '~/shared/contract';
import {
  addressesOfCity,
  addressForCity,
  initialValues,
  isSavedAddress,
  mirrorChecks,
  paymentsFor,
  withAddress,
} from './checkout-state';
import { matchCities } from '~/app/ui/CityField';

const method = (MODE: DeliveryMethod['MODE']): DeliveryMethod => ({
  ID: MODE === 'pickup' ? '139' : MODE === 'contact' ? '200' : '1',
  NAME: '',
  DESCRIPTION: '',
  MODE,
  PRICE: null,
  PRICE_TEXT: '',
  PERIOD_TEXT: '',
  DATE_FROM: null,
  DATE_TO: null,
  NOTE: null,
});
const address: SavedAddress = {
  id: 1,
  city: 'Москва',
  street: 'ул Тверская',
  house: '12',
  flat: '5',
  postal_code: '125009',
  comment: '',
};
const profile = { FIRSTNAME: 'Анна', LASTNAME: 'Тестова', SECONDNAME: '', PHONE: '79990000000', EMAIL: 'a@b.ru' };

describe('checkout form state', () => {
  it('starts from the profile and the first saved address, the phone in the mask', () => {
    const v = initialValues(profile, address, 'Москва');
    expect(v).toMatchObject({
      firstname: 'Анна',
      phone: '+7 (999) 000-00-00',
      city: 'Москва',
      street: 'ул Тверская',
      postcode: '125009',
    });
    expect(initialValues(null, undefined, 'Москва')).toMatchObject({ firstname: '', city: 'Москва', street: '' });
    expect(withAddress(initialValues(profile, undefined, 'Казань'), address).city).toBe('Москва');
  });

  it('mirrors SPEC §5 only: required fields after trimming, a street or a pickup point, with the server texts', () => {
    const empty = initialValues(null, undefined, ' ');
    expect(mirrorChecks(empty, method('address'))).toEqual({
      firstname: CHECKOUT_TEXT.firstnameRequired,
      phone: CHECKOUT_TEXT.phoneRequired,
      email: CHECKOUT_TEXT.emailRequired,
      city: CHECKOUT_TEXT.cityRequired,
      street: CHECKOUT_TEXT.streetRequired,
      payment_id: CHECKOUT_TEXT.paymentRequired,
    });
    const filled = { ...initialValues(profile, address, 'Москва'), payment_id: '1', email: 'not an e-mail' };
    // The e-mail's shape is the server's to judge.
    expect(mirrorChecks(filled, method('address'))).toEqual({});
    expect(mirrorChecks(filled, method('pickup'))).toEqual({ code_pvz: CHECKOUT_TEXT.pointRequired });
    expect(mirrorChecks({ ...filled, street: '  ' }, method('contact'))).toEqual({
      street: CHECKOUT_TEXT.foreignAddressRequired,
    });
    expect(mirrorChecks(filled, undefined)).toEqual({ delivery_id: CHECKOUT_TEXT.deliveryRequired });
    // Electronic certificates by e-mail: no address to ask for.
    expect(mirrorChecks({ ...filled, street: '' }, method('email'))).toEqual({});
  });

  it('knows a saved address whatever the case and spaces, and filters payments by delivery', () => {
    const v = {
      ...initialValues(null, undefined, ''),
      city: ' москва',
      street: 'УЛ  Тверская',
      house: '12',
      flat: '5',
    };
    expect(isSavedAddress(v, [address])).toBe(true);
    expect(isSavedAddress({ ...v, flat: '6' }, [address])).toBe(false);
    const params = {
      city: null,
      delivery_methods: [],
      payment_methods: [
        { ID: '1', NAME: '', DESCRIPTION: '', DELIVERY_IDS: ['1'] },
        { ID: '9', NAME: '', DESCRIPTION: '', DELIVERY_IDS: ['1', '139'] },
      ],
    };
    expect(paymentsFor(params, '139').map((p) => p.ID)).toEqual(['9']);
    expect(paymentsFor(null, '1')).toEqual([]);
  });

  it('matches the shop cities by the start of the name first, ё as е, the «г» prefix ignored', () => {
    const city = (NAME: string, COUNTRY = 'Россия'): DeliveryCity => ({
      ID: NAME,
      NAME,
      REGION: '',
      COUNTRY,
      COUNTRY_CODE: 'RU',
      CDEK_CODE: 1,
    });
    const cities = [
      city('Москва'),
      city('Санкт-Петербург'),
      city('Ростов-на-Дону'),
      city('Минск', 'Беларусь'),
      city('Королёв'),
    ];
    expect(matchCities(cities, 'г Санкт').map((c) => c.NAME)).toEqual(['Санкт-Петербург']);
    expect(matchCities(cities, 'дону').map((c) => c.NAME)).toEqual(['Ростов-на-Дону']);
    expect(matchCities(cities, 'королев').map((c) => c.NAME)).toEqual(['Королёв']);
    expect(matchCities(cities, 'бел').map((c) => c.NAME)).toEqual(['Минск']);
    expect(matchCities(cities, '')).toHaveLength(5);
  });
});

describe('saved addresses belong to their city (issue #26)', () => {
  const piter: SavedAddress = {
    id: 2,
    city: 'Санкт-Петербург',
    street: 'Невский пр',
    house: '28',
    flat: '7',
    postal_code: '191186',
    comment: 'домофон 7',
  };
  const second: SavedAddress = {
    ...piter,
    id: 3,
    street: 'Литейный пр',
    house: '4',
    flat: '',
    postal_code: '191028',
    comment: '',
  };
  const start = initialValues(profile, piter, 'Москва');

  it('empties a St Petersburg address when the city becomes Novosibirsk', () => {
    const v = addressForCity({ ...start, city: 'Новосибирск' }, 'Новосибирск', [piter, address]);
    expect(v).toMatchObject({ city: 'Новосибирск', street: '', house: '', flat: '', postcode: '', comment: '' });
  });

  it('fills the first saved address of the new city, and offers only that city’s addresses', () => {
    expect(addressForCity(start, 'Москва', [piter, address])).toMatchObject({
      city: 'Москва',
      street: 'ул Тверская',
      house: '12',
      postcode: '125009',
    });
    const empty = { ...start, street: '', house: '', flat: '', postcode: '' };
    expect(addressForCity(empty, 'г Санкт-Петербург', [piter])).toMatchObject({ street: 'Невский пр', house: '28' });
    expect(addressesOfCity([piter, address, second], 'санкт-петербург').map((a) => a.id)).toEqual([2, 3]);
    expect(addressesOfCity([piter, address], 'Новосибирск')).toEqual([]);
  });

  it('keeps an address the shopper typed, and a saved one of the same city', () => {
    const typed = { ...start, street: 'ул Ленина', house: '1', flat: '', postcode: '' };
    expect(addressForCity(typed, 'Новосибирск', [piter])).toMatchObject({
      city: 'Новосибирск',
      street: 'ул Ленина',
      house: '1',
    });
    const chosen = withAddress(start, second);
    expect(addressForCity(chosen, 'Санкт-Петербург', [piter, second])).toMatchObject({
      street: 'Литейный пр',
      house: '4',
    });
  });
});
