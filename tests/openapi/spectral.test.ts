/**
 * Both documents linted with Spectral as partners run it: `spectral:oas` and the OWASP API Security
 * ruleset, with the rules turned off or narrowed in spectral-ruleset.yaml, each with its reason. Any
 * finding, error or warning, fails.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { commandOf, servedDocuments, workFolder } from './documents';

jest.setTimeout(60_000);

interface Finding {
  code: string;
  message: string;
  path: string[];
  severity: number;
  source?: string;
}

const RULESET = join(__dirname, 'spectral-ruleset.yaml');

/** One Spectral run over several files (its start-up is most of its time). */
async function lint(files: string[]): Promise<Finding[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      commandOf('@stoplight/spectral-cli', 'spectral'),
      'lint',
      '--ruleset',
      RULESET,
      '--format',
      'json',
      '--quiet',
      ...files,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout || '[]') as Finding[];
}

describe('Spectral with spectral:oas and the OWASP API Security ruleset', () => {
  const work = workFolder();
  let findings: Finding[];
  afterAll(() => work.remove());

  beforeAll(async () => {
    const { a, b } = servedDocuments();
    // The same document with one partner input left unbounded (the e-mail as it was), to show the lint can fail.
    const unbounded = structuredClone(a) as {
      components: { schemas: { ApplicantDetails: { properties: { email: { maxLength?: number } } } } };
    };
    delete unbounded.components.schemas.ApplicantDetails.properties.email.maxLength;
    findings = await lint([
      work.write('variant-a.json', a),
      work.write('variant-b.json', b),
      work.write('unbounded.json', unbounded),
    ]);
  });

  const of = (file: string) =>
    findings
      .filter((finding) => finding.source?.endsWith(`/${file}`))
      .map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`);

  it.each(['variant-a.json', 'variant-b.json'])('when %s is linted, then nothing is found', (file) => {
    expect(of(file)).toEqual([]);
  });

  it('when a string a partner sends has no maxLength, then the lint finds it', () => {
    expect([...new Set(of('unbounded.json'))]).toEqual([
      'loanmatch-request-string-limit at components.schemas.ApplicantDetails.properties.email: A string a partner sends must specify maxLength, enum or const.',
    ]);
  });
});
