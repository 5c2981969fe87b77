// The part of mapshaper's API bench/simplify.ts uses (mapshaper ships no types).
declare module 'mapshaper' {
  interface Arcs {
    getPointCount(): number;
    getFilteredPointCount(): number;
  }
  interface Dataset {
    arcs: Arcs;
  }
  const mapshaper: {
    internal: {
      importContent(input: { json: { content: unknown; filename: string } }, opts: object): Dataset;
    };
    cmd: {
      simplify(dataset: Dataset, opts: { method: string; interval: number; keep_shapes: boolean }): void;
    };
  };
  export default mapshaper;
}
