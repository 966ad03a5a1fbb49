// Types of the Qi package (index.js); Board, Engine, moveToIccs and iccsToMove are the
// WebAssembly module's own, declared in qi_wasm.d.ts by wasm-bindgen.

export { Board, Engine, moveToIccs, iccsToMove, loadNet, unloadNet, netChecksum, evaluate } from './qi_wasm.js';

/** An error answered by Qi. */
export class QiError extends Error {
  constructor(message: string, status: number, code?: string | null, vars?: Record<string, string>);
  /** HTTP-like: 400 bad input, 404 unknown path, 422 does not fit, 500 a bug. */
  status: number;
  /** A stable name (`illegal_move`, `bad_fen`, `bad_move`, ...) to translate, or null. */
  code: string | null;
  /** The values the code's text needs. */
  vars: Record<string, string>;
}

/** Loads and starts the WebAssembly once (Node reads the file beside the package). */
export function load(source?: WebAssembly.Module | BufferSource): Promise<void>;
/** The compiled module, e.g. to post to a Web Worker. */
export function wasmModule(): Promise<WebAssembly.Module>;
/** The page API by path (`/xq/game`, `/xq/link`, `/huarong/solve`, ...), as `qi serve` answers `POST /api{path}`. */
export function call(path: string, body?: object): any;

/** One move in every notation (`chinese` in simplified characters, `traditional` in traditional ones). */
export interface MoveView { iccs: string; wxf: string; chinese: string; traditional: string; vietnamese: string }
/** The rules' verdict. */
export interface StatusView { over: boolean; winner?: 'red' | 'black' | null; reason?: string | null }
/** A game described at one ply. */
export interface GameView {
  start_fen: string;
  ply: number;
  plies: number;
  fen: string;
  turn: 'red' | 'black';
  board: Record<string, string>;
  legal: string[];
  check: boolean;
  last: string | null;
  moves: MoveView[];
  status: StatusView;
  link: string | null;
}
export function describeGame(game: { fen?: string; moves?: string[]; ply?: number }): GameView;

export const links: {
  decode(link: string): { format: 'compact' | 'seed'; start_fen: string; moves: string[]; s: string | null };
  encode(game: { fen?: string; moves: string[] }): { compact: string | null; seed: string | null; seed_error: string | null };
};

/** A move of a record's tree: the first child continues the line, the others are variations. */
export interface RecordNode { iccs: string; wxf?: string; chinese?: string; traditional?: string; vietnamese?: string; comment?: string; children: RecordNode[] }
export interface Record {
  start_fen: string;
  tags: [string, string][];
  comment: string | null;
  tree: RecordNode[];
  result: string | null;
  games: number;
}
export const pgn: {
  read(text: string): Record;
  write(record: { fen?: string; tags?: [string, string][]; comment?: string; tree: RecordNode[]; notation?: 'chinese' | 'traditional' | 'vietnamese' | 'wxf' | 'iccs' }): string;
};

export interface HuarongStep { piece: string; from: number; to: number; layout: string; code: string; solved: boolean }
export const huarong: {
  classics(): { name: string; pinyin: string; layout: string; code: string; steps: number | null }[];
  describe(layout: string): { layout: string; code: string; solved: boolean; pieces: { piece: string; cell: number }[]; moves: { piece: string; from: number; to: number; layout: string }[] };
  solve(layout: string): { steps: number | null; states: number; path: HuarongStep[] };
  hint(layout: string): { steps: number | null; move: { piece: string; from: number; to: number; layout: string } | null };
  puzzle(want?: { min?: number; max?: number; steps?: number; pieces?: string; seed?: string }): { layout: string; code: string; steps: number; pieces: string };
};
