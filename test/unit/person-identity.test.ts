import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { groupRoster } from '../../local-api/roster/store.ts';
import { type PersonAtDoor, personIdentity, samePerson } from '../../local-api/rules/identity.ts';
import type { VisitRow } from '../../local-api/visits/contract.ts';

const same = (a: PersonAtDoor, b: PersonAtDoor) => samePerson(personIdentity(a), personIdentity(b));

describe('who a check-in is', () => {
  test('different names are different people, whatever identifier they share', () => {
    assert.equal(
      same({ name: 'Ana Souza', email: 'team@acme.test' }, { name: 'Bruno Lima', email: 'team@acme.test' }),
      false,
    );
    assert.equal(same({ name: 'Ana Souza', cpf: '529.982.247-25' }, { name: 'Ana Lima', cpf: '52998224725' }), false);
    assert.equal(same({ name: 'Ana Souza', phone: '11 98765-4321' }, { name: 'Bia', phone: '11 98765-4321' }), false);
  });

  test('one name, without regard to case, accents and spacing, with no identifier that differs, is one person', () => {
    assert.equal(same({ name: 'Fábio  REPEAT' }, { name: 'fabio repeat' }), true);
    assert.equal(
      same({ name: 'Ana Souza', email: 'Ana@Acme.test ' }, { name: 'ana souza', email: 'ana@acme.test' }),
      true,
    );
    assert.equal(
      same({ name: 'Ana Souza', email: 'ana@acme.test' }, { name: 'Ana Souza' }),
      true,
      'an e-mail left out',
    );
    assert.equal(same({ name: 'Ana', phone: '+55 11 98765-4321' }, { name: 'Ana', phone: '11 98765-4321' }), true);
  });

  test('namesakes are told apart by an identifier that differs, or by their company', () => {
    assert.equal(same({ name: 'Ana Souza', email: 'ana@a.test' }, { name: 'Ana Souza', email: 'ana@b.test' }), false);
    assert.equal(
      same({ name: 'Ana Souza', cpf: '529.982.247-25' }, { name: 'Ana Souza', cpf: '111.444.777-35' }),
      false,
    );
    assert.equal(same({ name: 'Ana Souza', company: 'Acme' }, { name: 'Ana Souza', company: 'Initech' }), false);
    assert.equal(same({ name: 'Ana Souza', company: 'Acme' }, { name: 'Ana Souza' }), false);
  });
});

describe('the roster groups visits into people', () => {
  let clock = 100;
  const visit = (id: string, person: PersonAtDoor, authorizationStatus: string | null = null) =>
    ({ id, checkinAt: clock--, authorizationStatus, ...person }) as unknown as VisitRow;

  test('twelve colleagues on a team e-mail are twelve people; one person twice is one row', () => {
    const team = Array.from({ length: 12 }, (_, i) =>
      visit(`t${i}`, { name: `Colleague ${i}`, email: 'team@acme.test' }),
    );
    const again = [visit('a2', { name: 'Ana Souza', email: 'ana@acme.test' }), visit('a1', { name: 'ana  souza' })];
    const waiting = visit('w', { name: 'Colleague 0', email: 'team@acme.test' }, 'AWAITING');
    const groups = groupRoster([...team, ...again, waiting]);
    assert.equal(groups.inside.length, 13);
    assert.ok(groups.inside.slice(0, 12).every((person) => person.length === 1));
    assert.deepEqual(
      groups.inside[12]?.map((v) => v.id),
      ['a2', 'a1'],
    );
    assert.deepEqual(
      groups.waiting.map((v) => v.id),
      ['w'],
    );
  });

  test('a visit joins a person only when it is the same as each of their visits', () => {
    // The middle visit, without an e-mail, could be either namesake: it joins the newest, never both into one.
    const groups = groupRoster([
      visit('x', { name: 'Ana Souza', email: 'ana@a.test' }),
      visit('y', { name: 'Ana Souza' }),
      visit('z', { name: 'Ana Souza', email: 'ana@b.test' }),
    ]);
    assert.deepEqual(
      groups.inside.map((person) => person.map((v) => v.id)),
      [['x', 'y'], ['z']],
    );
  });
});
