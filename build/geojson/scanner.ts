// The byte-level state machine of the GeoJSON reader, behind the measurer,
// the geometry checks and the format writers. It reads a FeatureCollection
// chunk by chunk, never as one string, checks it as the measurer reports it,
// and keeps what the stats need: counts, bbox, geometry types, property names;
// and checks the file's own bbox members (./bbox-members.ts). Positions go to
// a PositionSink (./positions.ts), each feature's bytes to a FeatureListener
// (./feature-listener.ts).
import type { PositionSink } from './positions.ts';
import { depthReason, scanCoordinates, startCoordinates, type CoordinateState } from './coordinates.ts';
import { BboxMembers } from './bbox-members.ts';
import { FeatureHandOff, type FeatureListener } from './feature-listener.ts';
import { ScanError } from './errors.ts';
import { lastNumber, readNumber } from './numbers.ts';
import {
  describeByte,
  isWhitespace,
  readLiteral,
  readString,
  skipStringBody,
  startsValue,
  decodeString,
  type StringState,
} from './tokens.ts';
import {
  E_VALUE,
  E_VALUE_OR_CLOSE,
  E_KEY_OR_CLOSE,
  E_KEY,
  E_COLON,
  E_COMMA_OR_CLOSE,
  E_DONE,
  E_SKIP_STRING,
  F_TOP,
  F_FEATURES,
  F_FEATURE,
  F_GEOMETRY,
  F_PROPERTIES,
  F_SKIP_OBJECT,
  F_SKIP_ARRAY,
  F_BBOX,
  R_ANY,
  R_TOP,
  R_FEATURES,
  R_FEATURE,
  R_COLLECTION_TYPE,
  R_FEATURE_TYPE,
  R_GEOMETRY,
  R_PROPERTIES,
  R_GEOMETRY_TYPE,
  R_COORDINATES,
  R_BBOX,
  R_BBOX_ITEM,
  KEY_ROLES,
  MAX_DEPTH,
  LEAF_DEPTH,
  placeOf,
  wrongKindReason,
  typeValueProblem,
  firstMissing,
} from './states.ts';

/**
 * Scans one FeatureCollection fed as consecutive chunks. `scan` consumes what
 * it can and returns where it stopped: an unfinished token (number, key) is
 * left for the caller to carry into the next chunk.
 */
export class FeatureCollectionScanner {
  features = 0;
  readonly geometryTypes = new Map<string, number>();
  readonly properties = new Set<string>();
  readonly coords: CoordinateState = {
    level: 0,
    leaf: 0,
    expectedLeaf: 0,
    count: 0,
    expectValue: true,
    closeAllowed: false,
    box: new Float64Array([Infinity, Infinity, -Infinity, -Infinity]),
    sink: undefined,
    z: false,
  };
  readonly bboxes: BboxMembers; // the file's own bbox members, and those that do not hold their extent

  private base = 0; // file offset of buf[0] in the current call
  private buf: Buffer = Buffer.alloc(0); // the bytes of the current call
  private readonly handOff: FeatureHandOff | undefined;
  private featureZ = false;
  private stack = new Uint8Array(64);
  private depth = 0;
  private expect = E_VALUE;
  private role = R_TOP;
  private afterSkip = E_COMMA_OR_CLOSE; // what follows the string being skipped
  private readonly string: StringState = { inEscape: 0, escaped: false };
  private inCoordinates = false;
  private topStart = 0;
  private topSeen = 0;
  private featureStart = 0;
  private featureSeen = 0;
  private geometryStart = 0;
  private geometrySeen = 0;
  private geometryType = '';
  private coordinatesStart = 0;

  /**
   * `sink`: keeps every geometry's positions and is handed each complete one
   * (geometry checked in this pass). `trackAll`: keep every geometry's extent
   * for its bbox members (./bbox-members.ts), as a listener needs (each
   * feature's own extent). `listener`: handed each feature.
   */
  constructor(sink?: PositionSink, options: { trackAll?: boolean; listener?: FeatureListener } = {}) {
    this.coords.sink = sink;
    this.handOff = options.listener && new FeatureHandOff(options.listener);
    this.bboxes = new BboxMembers(options.trackAll || options.listener !== undefined);
  }

  /** The file offset from which the bytes read must be kept for the listener (-1: none): see scanRange. */
  get keepFrom(): number {
    return this.handOff ? this.handOff.keepFrom : -1;
  }

  /**
   * Scans buf[start, end) where buf[0] is at file offset `base`, and returns
   * the index of the first byte not consumed (end unless a token was cut off).
   * With `eof`, the file ends at `end` and an incomplete document throws.
   */
  scan(buf: Buffer, start: number, end: number, base: number, eof: boolean): number {
    this.base = base;
    this.buf = buf;
    let i = start;
    for (;;) {
      if (this.inCoordinates) {
        i = scanCoordinates(buf, i, end, eof, this.coords, base, () => this.where('geometry.coordinates'));
        if (this.coords.level > 0) return this.stopAt(i, end, eof);
        this.inCoordinates = false;
        this.bboxes.endCoordinates(this.coords.box);
        this.valueDone();
      }
      if (this.expect === E_SKIP_STRING) {
        const after = skipStringBody(buf, i, end, this.string, base);
        if (after < 0) return this.stopAt(end, end, eof);
        i = after;
        this.expect = this.afterSkip;
      }
      while (i < end && isWhitespace(buf[i])) i++;
      if (i >= end) return this.stopAt(i, end, eof);
      const next = this.step(buf, i, end, eof);
      if (next < 0) return this.stopAt(i, end, eof);
      i = next;
    }
  }

  /**
   * Puts the scanner inside the "features" array, before a feature: where a
   * worker starts on the second part of a file (build/measure/parallel.ts).
   * "type" and "features" count as seen, so a second one is an error and the
   * main thread then scans that part itself.
   */
  startBetweenFeatures(): void {
    this.stack[0] = F_TOP;
    this.stack[1] = F_FEATURES;
    this.depth = 2;
    this.expect = E_VALUE;
    this.role = R_FEATURE;
    this.topSeen = 3;
  }

  /** Returns whether the scan stands where startBetweenFeatures starts, with "type" seen: then the parts join. */
  isBetweenFeatures(): boolean {
    return (
      this.depth === 2 &&
      this.stack[0] === F_TOP &&
      this.stack[1] === F_FEATURES &&
      (this.expect === E_VALUE || this.expect === E_VALUE_OR_CLOSE) &&
      this.role === R_FEATURE &&
      !this.inCoordinates &&
      (this.topSeen & 1) !== 0
    );
  }

  /** Returns `i` to hand back to the caller, or throws if the file ended there unfinished. */
  private stopAt(i: number, end: number, eof: boolean): number {
    if (!eof) return i;
    if (i < end) throw new ScanError(this.base + i, 'unexpected end of file');
    if (this.expect !== E_DONE || this.inCoordinates) {
      throw new ScanError(this.base + end, 'unexpected end of file');
    }
    return end;
  }

  /** Consumes one token at buf[i] (not whitespace); returns the index after it, or -1 if cut off. */
  private step(buf: Buffer, i: number, end: number, eof: boolean): number {
    const c = buf[i];
    switch (this.expect) {
      case E_VALUE:
        return this.value(buf, i, end, eof);
      case E_VALUE_OR_CLOSE:
        return c === 0x5d ? this.close(i) : this.value(buf, i, end, eof);
      case E_KEY_OR_CLOSE:
        if (c === 0x7d) return this.close(i);
        return this.key(buf, i, end);
      case E_KEY:
        return this.key(buf, i, end);
      case E_COLON:
        if (c !== 0x3a) throw this.unexpected(buf, i, "':'");
        this.expect = E_VALUE;
        return i + 1;
      case E_COMMA_OR_CLOSE:
        return this.commaOrClose(buf, i);
      default: // E_DONE
        throw new ScanError(this.base + i, `unexpected ${describeByte(buf, i)} after the FeatureCollection`);
    }
  }

  private commaOrClose(buf: Buffer, i: number): number {
    const c = buf[i];
    const frame = this.stack[this.depth - 1];
    const isArray = frame === F_FEATURES || frame === F_SKIP_ARRAY || frame === F_BBOX;
    if (c === 0x2c) {
      if (isArray) {
        this.expect = E_VALUE;
        this.role = frame === F_FEATURES ? R_FEATURE : frame === F_BBOX ? R_BBOX_ITEM : R_ANY;
      } else {
        this.expect = E_KEY;
      }
      return i + 1;
    }
    if (c === (isArray ? 0x5d : 0x7d)) return this.close(i);
    throw this.unexpected(buf, i, isArray ? "',' or ']'" : "',' or '}'");
  }

  /** Reads an object key: property names are kept, keys of GeoJSON members decide the next role. */
  private key(buf: Buffer, i: number, end: number): number {
    if (buf[i] !== 0x22) throw this.unexpected(buf, i, 'a string key');
    const frame = this.stack[this.depth - 1];
    this.role = R_ANY;
    if (frame === F_SKIP_OBJECT) return this.skipString(i + 1, E_COLON);
    const after = readString(buf, i, end, this.string, this.base);
    if (after < 0) return -1;
    const name = decodeString(buf, i, after, this.string.escaped);
    this.expect = E_COLON;
    if (frame === F_PROPERTIES) {
      this.properties.add(name);
      return after;
    }
    const known = Object.hasOwn(KEY_ROLES[frame], name) ? KEY_ROLES[frame][name] : undefined;
    if (known) {
      const [bit, role] = known;
      const seen =
        frame === F_TOP ? this.topSeen : frame === F_FEATURE ? this.featureSeen : this.geometrySeen;
      if (seen & bit)
        throw new ScanError(this.base + i, `${this.where(frame)} has a duplicate "${name}" key`);
      if (frame === F_TOP) this.topSeen |= bit;
      else if (frame === F_FEATURE) this.featureSeen |= bit;
      else this.geometrySeen |= bit;
      this.role = role;
    }
    return after;
  }

  private skipString(i: number, then: number): number {
    this.string.inEscape = 0;
    this.expect = E_SKIP_STRING;
    this.afterSkip = then;
    return i;
  }

  /** Reads a value whose role is `this.role`; containers are pushed, scalars checked and consumed. */
  private value(buf: Buffer, i: number, end: number, eof: boolean): number {
    const c = buf[i];
    const role = this.role;
    if (!startsValue(c)) throw this.unexpected(buf, i, 'a value');
    if (c === 0x7b) return this.openObject(buf, i);
    if (c === 0x5b) return this.openArray(buf, i);
    if (c === 0x22) {
      if (role === R_ANY) return this.skipString(i + 1, this.depth > 0 ? E_COMMA_OR_CLOSE : E_DONE);
      if (role === R_BBOX || role === R_BBOX_ITEM) {
        this.notANumber();
        return this.skipString(i + 1, E_COMMA_OR_CLOSE);
      }
      if (role !== R_COLLECTION_TYPE && role !== R_FEATURE_TYPE && role !== R_GEOMETRY_TYPE) {
        throw this.wrongKind(i);
      }
      const after = readString(buf, i, end, this.string, this.base);
      if (after < 0) return -1;
      this.typeValue(i, decodeString(buf, i, after, this.string.escaped));
      this.valueDone();
      return after;
    }
    if (c === 0x6e && role === R_GEOMETRY) {
      throw new ScanError(this.base + i, `${this.where('geometry')} is null`);
    }
    const isNumber = c === 0x2d || (c >= 0x30 && c <= 0x39);
    if (role !== R_ANY && !(c === 0x6e && role === R_PROPERTIES)) {
      if (role !== R_BBOX && role !== R_BBOX_ITEM) throw this.wrongKind(i);
      return this.bboxValue(buf, i, end, eof, isNumber);
    }
    const after = isNumber
      ? readNumber(buf, i, end, eof, this.base)
      : readLiteral(buf, i, end, eof, this.base);
    if (after < 0) return -1;
    this.valueDone();
    return after;
  }

  /** Reads a number or literal that is a bbox member, or an item of its array. */
  private bboxValue(buf: Buffer, i: number, end: number, eof: boolean, isNumber: boolean): number {
    const after = isNumber
      ? readNumber(buf, i, end, eof, this.base)
      : readLiteral(buf, i, end, eof, this.base);
    if (after < 0) return -1;
    if (isNumber && this.role === R_BBOX_ITEM) this.bboxes.number(lastNumber.value);
    else this.notANumber();
    this.valueDone();
    return after;
  }

  /** A bbox member that is not an array (role R_BBOX), or an item of its array that is not a number. */
  private notANumber(): void {
    if (this.role === R_BBOX) this.bboxes.notAnArray(this.stack[this.depth - 1]!);
    else this.bboxes.spoil();
  }

  private openObject(buf: Buffer, i: number): number {
    const role = this.role;
    let frame = F_SKIP_OBJECT;
    if (role === R_TOP) {
      frame = F_TOP;
      this.topStart = i + this.base;
    } else if (role === R_FEATURE) {
      frame = F_FEATURE;
      this.features++;
      this.featureStart = i + this.base;
      this.featureSeen = 0;
      this.bboxes.startFeature();
      this.handOff?.startFeature(this.featureStart);
    } else if (role === R_GEOMETRY) {
      frame = F_GEOMETRY;
      this.geometryStart = i + this.base;
      this.geometrySeen = 0;
      this.geometryType = '';
      this.bboxes.startGeometry();
    } else if (role === R_PROPERTIES) {
      frame = F_PROPERTIES;
      this.handOff?.startProperties(i + this.base);
    } else if (role === R_BBOX || role === R_BBOX_ITEM) {
      this.notANumber(); // and skipped
    } else if (role !== R_ANY) {
      throw this.wrongKind(i);
    }
    this.push(frame, i);
    this.expect = E_KEY_OR_CLOSE;
    return i + 1;
  }

  private openArray(buf: Buffer, i: number): number {
    const role = this.role;
    if (role === R_COORDINATES) {
      startCoordinates(this.coords, LEAF_DEPTH[this.geometryType] ?? 0);
      this.bboxes.startCoordinates(this.coords.box); // they get an extent of their own
      this.coordinatesStart = this.base + i;
      this.inCoordinates = true;
      return i; // scanCoordinates reads the '[' itself
    }
    if (role === R_FEATURES) this.push(F_FEATURES, i);
    else if (role === R_BBOX) {
      this.bboxes.start(this.stack[this.depth - 1]!);
      this.push(F_BBOX, i);
    } else if (role === R_ANY || role === R_BBOX_ITEM) {
      if (role === R_BBOX_ITEM) this.bboxes.spoil();
      this.push(F_SKIP_ARRAY, i);
    } else throw this.wrongKind(i);
    this.expect = E_VALUE_OR_CLOSE;
    this.role = role === R_FEATURES ? R_FEATURE : role === R_BBOX ? R_BBOX_ITEM : R_ANY;
    return i + 1;
  }

  private push(frame: number, i: number): void {
    if (this.depth >= MAX_DEPTH)
      throw new ScanError(this.base + i, `nesting deeper than ${MAX_DEPTH} levels`);
    if (this.depth === this.stack.length) {
      const bigger = new Uint8Array(this.stack.length * 2);
      bigger.set(this.stack);
      this.stack = bigger;
    }
    this.stack[this.depth++] = frame;
  }

  /** Closes the innermost container at buf[i] after checking the members it must have. */
  private close(i: number): number {
    const frame = this.stack[this.depth - 1];
    if (frame === F_TOP) this.closeCollection();
    else if (frame === F_FEATURE) this.closeFeature(i);
    else if (frame === F_GEOMETRY) this.closeGeometry();
    else if (frame === F_BBOX) this.bboxes.end();
    else if (frame === F_PROPERTIES) this.handOff?.endProperties(this.buf, this.base, i);
    this.depth--;
    this.valueDone();
    return i + 1;
  }

  private closeCollection(): void {
    const missing = firstMissing(this.topSeen, ['type', 'features']);
    if (missing) throw new ScanError(this.topStart, `not a FeatureCollection: no "${missing}" member`);
  }

  private closeFeature(i: number): void {
    const missing = firstMissing(this.featureSeen, ['type', 'geometry', 'properties']);
    if (missing) throw new ScanError(this.featureStart, `${this.where(F_FEATURE)} has no "${missing}"`);
    this.bboxes.endFeature(this.features - 1);
    this.handOff?.endFeature(this.buf, this.base, i, {
      index: this.features - 1,
      start: this.featureStart,
      type: this.geometryType,
      box: this.bboxes.extent,
      z: this.featureZ,
    });
  }

  private closeGeometry(): void {
    const missing = firstMissing(this.geometrySeen, ['type', 'coordinates']);
    if (missing) throw new ScanError(this.geometryStart, `${this.where('geometry')} has no "${missing}"`);
    const type = this.geometryType;
    if (this.coords.leaf !== LEAF_DEPTH[type]) {
      // The coordinates came before "type", so their depth is only checked now.
      throw new ScanError(
        this.coordinatesStart,
        `${this.where('geometry.coordinates')}: ${depthReason(LEAF_DEPTH[type], String(this.coords.leaf))}`,
      );
    }
    this.geometryTypes.set(type, (this.geometryTypes.get(type) ?? 0) + 1);
    this.featureZ = this.coords.z;
    this.coords.sink?.endGeometry(type, this.features - 1, this.coords.box);
    this.bboxes.endGeometry(this.features - 1);
  }

  /** Checks the string value of a "type" member; a geometry's is kept. */
  private typeValue(i: number, value: string): void {
    const problem = typeValueProblem(this.role, value, (what) => this.where(what));
    if (problem) throw new ScanError(this.base + i, problem);
    if (this.role === R_GEOMETRY_TYPE) this.geometryType = value;
  }

  /** After a complete value: the container expects ',' or its end; at the top level, nothing. */
  private valueDone(): void {
    this.expect = this.depth > 0 ? E_COMMA_OR_CLOSE : E_DONE;
  }

  /** Returns where we are for messages, e.g. "features[3].geometry". */
  private where(what: number | string): string {
    return placeOf(what, this.features);
  }

  /** The error for a value of the wrong JSON kind in a GeoJSON member. */
  private wrongKind(i: number): ScanError {
    return new ScanError(
      this.base + i,
      wrongKindReason(this.role, this.features, (what) => this.where(what)),
    );
  }

  private unexpected(buf: Buffer, i: number, expected: string): ScanError {
    return new ScanError(this.base + i, `invalid JSON: expected ${expected}, found ${describeByte(buf, i)}`);
  }
}
