/** The committed types of src/generated/ are what openapi-typescript makes of the service's documents today. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_DIR, generatedFiles } from '../scripts/generate';

jest.setTimeout(60_000);

describe('the generated types', () => {
  it('when they are generated again from the documents, then each committed file is the same', async () => {
    for (const [name, text] of Object.entries(await generatedFiles())) {
      const committed = readFileSync(join(GENERATED_DIR, name), 'utf8');
      if (committed !== text)
        throw new Error(
          `src/generated/${name} is not what the documents give: run pnpm --filter @loanmatch/client generate`,
        );
    }
  });
});
