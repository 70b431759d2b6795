import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSV_BOM, csvLine } from '~/core/csv';

// A CSV export's answer (customers, products): the heading, then each batch's lines as the batches
// come (models read them by keyset, db/keyset.server.ts), streamed so a long export holds one batch
// in memory. `excel` (the default): UTF-8 with a byte order mark and `;`, which Excel in a Russian
// locale opens by double click; `plain`: UTF-8 without the mark and `,`, for other tools.

export type CsvFlavour = 'excel' | 'plain';
export const csvSeparatorOf = (flavour: CsvFlavour): ';' | ',' => (flavour === 'plain' ? ',' : ';');

type Field = string | number | boolean | null | undefined;

export function sendCsv(
  req: FastifyRequest,
  reply: FastifyReply,
  {
    fileName,
    heading,
    batches,
    flavour = 'excel',
  }: {
    fileName: string;
    heading: readonly string[];
    /** Each batch's rows, already as fields (the separator given for the fields that depend on it). */
    batches: (separator: ';' | ',') => AsyncIterable<readonly (readonly Field[])[]>;
    flavour?: CsvFlavour;
  },
): FastifyReply {
  const separator = csvSeparatorOf(flavour);
  async function* csv(): AsyncGenerator<string> {
    yield (flavour === 'excel' ? CSV_BOM : '') + csvLine(heading, separator);
    for await (const batch of batches(separator)) yield batch.map((row) => csvLine(row, separator)).join('');
  }
  const stream = Readable.from(csv(), { objectMode: false });
  stream.on('error', (err) => req.log.error({ err, fileName }, 'admin: CSV export failed mid-way'));
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(stream);
}
