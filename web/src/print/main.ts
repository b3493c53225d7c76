import { api } from '../core/api.ts';
import { h } from '../ui/dom.ts';

/**
 * The printables page: the scenario's base markers (one sheet per base size), its reference
 * markers and the calibration board, as links to the server's PDFs, each with the `vedette print`
 * command that makes the same file.
 */

interface Printables {
  readonly scenario: string;
  readonly dictionary: string;
  readonly bases: ReadonlyArray<{ size: string; ids: readonly number[]; markerMm: number }>;
  readonly reference: { readonly ids: readonly number[]; readonly sizeMm: number };
  readonly board: string;
}

const paper = document.getElementById('paper') as HTMLSelectElement;
const sheets = document.getElementById('sheets') as HTMLElement;
let data: Printables | null = null;

function ranges(ids: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ids.length;) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j++;
    out.push(i === j ? String(ids[i]) : `${ids[i]}-${ids[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

function sheet(title: string, what: string, href: string, command: string): HTMLElement {
  return h(
    'section',
    { class: 'sheet' },
    h('h2', {}, title),
    h('p', {}, what),
    h('a', { class: 'download', href, download: '' }, `Download ${title.toLowerCase()} (PDF)`),
    h('p', { class: 'muted' }, 'Or from a terminal: ', h('code', {}, command)),
  );
}

function draw(): void {
  if (!data) return;
  const p = paper.value;
  sheets.replaceChildren(
    h('p', {}, `For "${data.scenario}", markers of the ${data.dictionary} family.`),
    ...data.bases.map((b) =>
      sheet(
        `Base markers ${b.size} mm`,
        `${b.ids.length} markers of ${b.markerMm} mm for ${b.size} mm bases: ids ${ranges(b.ids)}.`,
        `/api/print/markers.pdf?size=${encodeURIComponent(b.size)}&paper=${p}`,
        `vedette print markers --base ${b.size} --ids ${ranges(b.ids)} --marker-size ${b.markerMm} --dictionary ${data!.dictionary} --paper ${p}`,
      ),
    ),
    sheet(
      'Reference markers',
      `${data.reference.ids.length} markers of ${data.reference.sizeMm} mm for the table's corners: ids ${ranges(data.reference.ids)}.`,
      `/api/print/reference.pdf?paper=${p}`,
      `vedette print reference --ids ${ranges(data.reference.ids)} --size ${data.reference.sizeMm} --dictionary ${data.dictionary} --paper ${p}`,
    ),
    sheet(
      'Calibration board',
      `The ChArUco board ${data.board}, for the Calibrate tab and \`vedette calibrate\`.`,
      `/api/print/board.pdf?paper=${p}`,
      `vedette print board --paper ${p}`,
    ),
  );
}

paper.addEventListener('change', draw);
api<Printables>('GET', '/api/print')
  .then((d) => {
    data = d;
    draw();
  })
  .catch((err: Error) =>
    sheets.replaceChildren(h('p', { class: 'error' }, `Cannot list the printables: ${err.message}`)),
  );
