// CLI layer of `geoshelf locations import`: parses flags, runs the import
// stage, prints problems or a summary, and shows progress on a terminal.
import { problem, type Problem } from '../../../build/core/problem.ts';
import { plural } from '../../../build/core/report.ts';
import { UsageError, UserError, defineCommand } from '../command.ts';
import { FIELDS, MAX_LISTED_PROBLEMS, importLocations, type Field } from '../../locations/import.ts';
import { normaliseType } from '../../locations/normalise.ts';
import { LOCATION_TYPES } from '../../locations/types.ts';

const usage = `Usage: geoshelf locations import FILE… [--db FILE] [--type TYPE] [--map field=column,…] [--replace]

Loads locations from .csv (header row), .json (array of objects) and .geojson
(FeatureCollection of Points) files into a SQLite database, in file order.

Options:
  --db FILE        database to write (default data/locations.sqlite; created when absent)
  --type TYPE      type of records without a type value: ${LOCATION_TYPES.join(', ')}
                   (any letter case; legacy "pronto" and "otros" accepted)
  --map F=COL,…    read field F from column COL, e.g. name=Compania,latitude=Latitud
                   (fields: ${FIELDS.join(', ')}; unmapped fields use the column of
                   the same name in any letter case; GeoJSON takes coordinates from the Point)
  --replace        replace every row of the database instead of appending
  -h, --help       show this help

Records without an id get a deterministic UUID (the same input gives the same
ids). If any record is bad, nothing is written: the first ${MAX_LISTED_PROBLEMS} problems are
listed, then how many there were. The file is replaced at once when the import
is complete (a server serving it picks the new rows up by itself); an import
that is interrupted leaves it as it was.`;

/** Returns `--map` text such as "name=Compania,latitude=Latitud" as a field → column object. */
export function parseFieldMap(text: string): Partial<Record<Field, string>> {
  const map: Partial<Record<Field, string>> = {};
  for (const pair of text.split(',')) {
    const [field, column, ...rest] = pair.split('=');
    if (!field || column === undefined || column === '' || rest.length > 0) {
      throw new UsageError(`--map: expected field=column pairs separated by commas, got "${pair}"`);
    }
    if (!(FIELDS as readonly string[]).includes(field.trim())) {
      throw new UsageError(`--map: unknown field "${field}" (fields: ${FIELDS.join(', ')})`);
    }
    map[field.trim() as Field] = column;
  }
  return map;
}

/**
 * Returns the one problem of an import whose every rejected record is already
 * in the database (`first` being one of them): the same input imported twice,
 * most likely, so the way to load it again is --replace.
 */
function alreadyImported(db: string, first: Problem, n: number): Problem {
  const where = first.line !== undefined ? `${first.file}:${first.line}` : `${first.file}: ${first.pointer}`;
  const these = n === 1 ? `1 record is` : `${n} records are`;
  return problem(
    db,
    `nothing written: ${these} already in it (the same ${n === 1 ? 'id' : 'ids'}, e.g. ${where}); ` +
      'was this input imported before? Add --replace to replace every row with the input, or import a different file',
    { rule: 'id-exists' },
  );
}

export default defineCommand({
  usage,
  options: {
    db: { type: 'string', default: 'data/locations.sqlite' },
    type: { type: 'string' },
    map: { type: 'string' },
    replace: { type: 'boolean', default: false },
  },
  positionals: true,
  async run({ values, positionals }) {
    if (positionals.length === 0) throw new UsageError('no input FILE given (see --help)');
    const type = values.type === undefined ? undefined : normaliseType(values.type);
    if (values.type !== undefined && !type) {
      throw new UsageError(`--type: expected one of ${LOCATION_TYPES.join(', ')}, got "${values.type}"`);
    }
    const tty = process.stdout.isTTY;
    const result = await importLocations({
      files: positionals,
      db: values.db,
      type,
      map: values.map === undefined ? undefined : parseFieldMap(values.map),
      replace: values.replace,
      onProgress: tty
        ? (records, file, bytes) => {
            const percent =
              bytes.size > 0 ? ` (${Math.floor((100 * bytes.read) / bytes.size)}% of ${file})` : '';
            process.stdout.write(`\r\x1b[Kread ${records} locations${percent}…`);
          }
        : undefined,
    });
    if (tty) process.stdout.write('\r\x1b[K');
    if (result.problems.length > 0 && result.problems.every((p) => p.rule === 'write')) {
      throw new UserError(result.problems); // the target could not be written: that one line says it
    }
    if (result.problemCount > 0 && result.existing === result.problemCount) {
      throw new UserError(alreadyImported(values.db, result.problems[0]!, result.existing));
    }
    if (result.problemCount > 0) {
      const more = result.problemCount - result.problems.length;
      throw new UserError([
        ...result.problems,
        ...(more > 0 ? [problem('', `… and ${more} more ${more === 1 ? 'problem' : 'problems'}`)] : []),
        problem(values.db, `nothing written: ${plural(result.problemCount, 'problem')}`),
      ]);
    }
    const verb = values.replace ? 'replaced the contents with' : result.created ? 'created with' : 'appended';
    console.log(`${values.db}: ${verb} ${plural(result.inserted, 'location')} (${result.total} in total)`);
    return 0;
  },
});
