import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { isValidCpf } from '../../local-api/rules/cpf.ts';
import { visitorInput } from '../../local-api/visits/schema.ts';
import { readCode } from '../../renderer/src/codes.ts';
import { answerItems, answerProblems } from '../../renderer/src/custom-fields.ts';
import { en } from '../../renderer/src/i18n/en.ts';
import { kioskLanguage, resources } from '../../renderer/src/i18n/index.ts';
import { fold, matching } from '../../renderer/src/search.ts';
import { dayIn, isToday } from '../../renderer/src/time.ts';
import type { CustomFieldDefinition } from '../../renderer/src/types.ts';
import { askedFields, visitorBody, visitorProblems } from '../../renderer/src/visitor-rules.ts';

describe('the page checks a visitor as the API does', () => {
  const fields = askedFields({
    email: 'optional',
    phone: 'optional',
    cpf: 'optional',
    rg: 'off',
    document: 'off',
    company: 'required',
    position: 'off',
    sector: 'off',
    address: 'off',
  });
  const apiAccepts = (data: Record<string, string>) => visitorInput.safeParse(visitorBody(data, fields)).success;
  const pageAccepts = (data: Record<string, string>) =>
    Object.keys(visitorProblems({ name: 'A', company: 'B', ...data }, fields)).length === 0;

  test('e-mails, CPFs and phones: the same verdict on typical and arbitrary input', () => {
    const samples = {
      email: [
        'ana@example.com',
        ' ana@example.com ',
        'ana@example',
        'a@b.c',
        'ana.souza+kiosk@mail.example.com.br',
        '@x.com',
      ],
      cpf: ['111.444.777-35', '11144477735', '111.444.777-36', '000.000.000-00', '1114447773', '111-444-777.35'],
      phone: ['+55 (11) 98765-4321', '11987654321', '1198x', '+', '(11) 9.8765-4321'],
    };
    for (const [key, values] of Object.entries(samples)) {
      for (const value of values)
        assert.equal(
          pageAccepts({ [key]: value }),
          apiAccepts({ name: 'A', company: 'B', [key]: value }),
          `${key} ${value}`,
        );
    }
    fc.assert(
      fc.property(fc.constantFrom('email', 'cpf', 'phone'), fc.string({ maxLength: 30 }), (key, value) => {
        const data = { name: 'A', company: 'B', [key]: value };
        return pageAccepts({ [key]: value }) === apiAccepts(data);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/), (cpf) => pageAccepts({ cpf }) === isValidCpf(cpf)),
    );
  });

  test('asks the name always and the fields the settings turn on; required ones must be filled', () => {
    assert.deepEqual(
      fields.map((f) => `${f.key}:${f.required}`),
      ['name:true', 'email:false', 'phone:false', 'cpf:false', 'company:true'],
    );
    assert.deepEqual(visitorProblems({ name: '  ' }, fields), { name: 'required', company: 'required' });
    assert.deepEqual(visitorBody({ name: ' Ana ', email: '', company: 'Acme' }, fields), {
      name: 'Ana',
      company: 'Acme',
    });
  });
});

describe('scanned codes', () => {
  const id = '4b2c7ad2-0c37-4b5e-9d54-2a5f0c1e9b11';
  test('a badge, an invitation, a gate code with its card number, a typed code; anything else is unknown', () => {
    assert.deepEqual(readCode(`portaria:visit:${id}`), { kind: 'visit', id });
    assert.deepEqual(readCode(` PORTARIA:INVITEE:${id.toUpperCase()} `), { kind: 'invitee', id });
    assert.deepEqual(readCode('T1.V.123456.30.12345678'), { kind: 'card', cardNumber: 123456 });
    assert.deepEqual(readCode('98765'), { kind: 'card', cardNumber: 98765 });
    for (const text of ['T1.H.123456.30.12345678', 'A1.abcdef', 'https://example.com', `portaria:visit:${id}x`, '12']) {
      assert.deepEqual(readCode(text), { kind: 'unknown' }, text);
    }
  });
});

describe('type-ahead', () => {
  const hosts = [
    { name: 'João Álvares', sector: 'Engenharia' },
    { name: 'Ana Souza', sector: 'Finance' },
    { name: 'Mariana Ana', sector: null },
  ];
  test('matches word starts, without accents or case, best first, within the limit', () => {
    assert.equal(fold(' ÁLVARES '), 'alvares');
    const by = (q: string, limit?: number) => matching(hosts, q, (h) => [h.name, h.sector], limit).map((h) => h.name);
    assert.deepEqual(by('joao alv'), ['João Álvares']);
    assert.deepEqual(by('eng'), ['João Álvares']);
    assert.deepEqual(by('ana'), ['Ana Souza', 'Mariana Ana'], 'a name that starts with it comes first');
    assert.deepEqual(by('ana', 1), ['Ana Souza']);
    assert.deepEqual(by('  '), []);
    assert.deepEqual(by('nna'), [], 'word starts only');
  });
});

describe('custom-field answers', () => {
  const defs: CustomFieldDefinition[] = [
    { id: 'plate', name: 'Plate', type: 'Text', required: true },
    { id: 'people', name: 'People', type: 'Number' },
    { id: 'why', name: 'Why', type: 'Dropdown', options: ['Meeting', 'Delivery'], required: true },
    { id: 'rules', name: 'Rules', type: 'Checkbox', required: true, localizedName: { 'pt-BR': 'Regras' } },
    { id: 'mail', name: 'Mail', type: 'Email' },
  ];
  test('are checked with the service rules, a decimal comma accepted', () => {
    assert.deepEqual(answerProblems(defs, {}), { plate: 'required', why: 'required', rules: 'required' });
    assert.deepEqual(answerProblems(defs, { plate: 'X', people: 'two', why: 'Meeting', rules: 'true', mail: 'nope' }), {
      people: 'number',
      mail: 'email',
    });
    assert.deepEqual(answerProblems(defs, { plate: 'X', people: '2,5', why: 'Meeting', rules: 'true' }), {});
  });

  test('are sent in the definitions order, unanswered ones left out, numbers with a point', () => {
    const items = answerItems(defs, { plate: ' ABC ', people: '2,5', rules: 'true' }, 'FIELD');
    assert.deepEqual(
      items.map((i) => [i.customFieldId, i.value, i.sort]),
      [
        ['plate', 'ABC', 0],
        ['people', '2.5', 1],
        ['rules', 'true', 3],
      ],
    );
    assert.deepEqual(items[2]?.localizedName, { 'pt-BR': 'Regras' });
  });
});

describe('the four languages', () => {
  type Tree = { [key: string]: string | Tree };
  const leaves = (tree: Tree, prefix = ''): [string, string][] =>
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [[`${prefix}${key}`, value]] : leaves(value, `${prefix}${key}.`),
    );
  const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
  const english = new Map(leaves(en as unknown as Tree));

  test('have every English key, no empty text, and the same {{variables}}', () => {
    for (const [lang, { translation }] of Object.entries(resources)) {
      const texts = new Map(leaves(translation as unknown as Tree));
      assert.deepEqual([...texts.keys()].sort(), [...english.keys()].sort(), lang);
      for (const [key, text] of texts) {
        assert.ok(text.trim() !== '', `${lang} ${key} is empty`);
        assert.deepEqual(variables(text), variables(english.get(key) ?? ''), `${lang} ${key}`);
      }
    }
  });

  test('are chosen from a company or browser language', () => {
    assert.equal(kioskLanguage('pt'), 'pt-BR');
    assert.equal(kioskLanguage('pt-PT'), 'pt-BR');
    assert.equal(kioskLanguage('de-AT'), 'de');
    assert.equal(kioskLanguage('zh-CN'), 'zh-Hans');
    assert.equal(kioskLanguage('fr'), 'en');
    assert.equal(kioskLanguage(null), 'en');
  });
});

test("today is the company's day, not the machine's", () => {
  const at = '2026-03-10T01:30:00Z'; // still the 9th in São Paulo
  assert.equal(dayIn('America/Sao_Paulo', at), '2026-03-09');
  assert.equal(isToday('America/Sao_Paulo', '2026-03-09T20:00:00-03:00', new Date(at)), true);
  assert.equal(isToday('UTC', '2026-03-09T20:00:00-03:00', new Date(at)), false);
});
