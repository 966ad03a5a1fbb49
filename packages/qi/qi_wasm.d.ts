/* tslint:disable */
/* eslint-disable */

/**
 * A Xiangqi position and the moves played from its start (for the repetition rulings and
 * `undo`). Moves are numbers: `from | to << 7`, a square being `file + 9 * rank` (`a0` = 0).
 *
 * wasm-bindgen frees a `Board` when JavaScript collects it (weak references); `free()` frees
 * it at once.
 */
export class Board {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * How many legal moves there are (without building the list).
     */
    countLegalMoves(): number;
    /**
     * The current position as FEN.
     */
    fen(): string;
    /**
     * Whether the side to move is in check.
     */
    isCheck(): boolean;
    /**
     * Whether move number `m` is legal here.
     */
    isLegal(m: number): boolean;
    /**
     * Writes the legal moves as move numbers into `buffer` (a `Uint16Array` the caller keeps
     * and reuses: 128 entries hold any position's moves) and returns how many there are; when
     * there are more than `buffer` holds, only the first `buffer.length` are written. No array
     * is made for JavaScript's collector, which is what a perft spends most of its time on.
     */
    legalMovesInto(buffer: Uint16Array): number;
    /**
     * The legal moves, as move numbers (a `Uint16Array`).
     */
    legalMoves(): Uint16Array;
    /**
     * The moves played from the start, as move numbers.
     */
    moves(): Uint16Array;
    /**
     * The position of `fen`, or the standard start when none is given.
     *
     * # Errors
     * A FEN that does not read, or describes an impossible position (the message says why).
     */
    constructor(fen?: string | null);
    /**
     * Move number `m` in `notation`: `iccs`, `wxf`, `chinese` (or `zh-Hans`), `traditional`
     * (or `zh-Hant`), `vietnamese` (or `vi`).
     *
     * # Errors
     * An unknown notation, or a move that is not legal here.
     */
    notate(m: number, notation: string): string;
    /**
     * Reads a move written in any notation (`炮二平五`, `C2.5`, `P2-5`, `h2e2`) as a move number.
     *
     * # Errors
     * A text that does not read, fits several moves, or names an illegal move.
     */
    parseMove(text: string): number;
    /**
     * The number of move paths `depth` plies deep (bulk counting at the last ply), as a
     * `Number` (exact below 2^53).
     */
    perft(depth: number): number;
    /**
     * Plays move number `m`.
     *
     * # Errors
     * An illegal move, with the rule it breaks; the board is unchanged.
     */
    play(m: number): void;
    /**
     * Where the side *not* to move may premove (a move queued while the opponent thinks), as
     * move numbers: its legal moves in this position as if it were its turn, and the moves
     * onto each of its own pieces (not the king) as if an opponent's rook, horse or cannon
     * stood there (a recapture; the first of the three that any piece can take is used).
     * Whether a premove is legal once the opponent has moved is judged again then; a position
     * that cannot be set up with the turn passed (the side to move in check, ...) adds nothing.
     */
    premoveMoves(): Uint16Array;
    /**
     * The start position as FEN.
     */
    startFen(): string;
    /**
     * The game-end verdict as JSON: `{"over", "winner"?, "reason"?}` (checkmate, stalemate,
     * perpetual check or chase, repetition, move limit, no attackers).
     */
    status(): string;
    /**
     * `"red"` or `"black"`, to move.
     */
    turn(): string;
    /**
     * Takes back the last move; `false` at the start.
     */
    undo(): boolean;
    /**
     * Why move number `m` cannot be played here (`"the path is blocked"`, ...); `undefined`
     * when it can.
     */
    whyIllegal(m: number): string | undefined;
}

/**
 * A searcher with its own transposition table and move-ordering statistics, kept between
 * searches (call `clear()` for a new game).
 */
export class Engine {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * The page's analysis, as the server's `POST /api/xq/analyse`: `body` as there; calls
     * `on_event("info", json)` after each depth and returns `""` once `on_event("done", json)`
     * was called, or the error as `{"status", "body"}` JSON.
     */
    analyse(body: string, on_event: Function): string;
    /**
     * Forgets everything learned (a new game).
     */
    clear(): void;
    /**
     * Searches the position at the end of a game: `request` is JSON `{fen?, moves?, depth?,
     * nodes?, movetime_ms?, multipv?}` (no limit at all: depth 10). Calls `on_info(json)` after
     * each completed depth (return `false` from it to stop), and returns the final JSON
     * `{bestmove, depth, seldepth, nodes, time_ms, nps, lines: [{score: {cp, mate}, pv}]}`,
     * scores for the side to move.
     *
     * # Errors
     * A request that does not read, a bad FEN or move.
     */
    go(request: string, on_info?: Function | null): string;
    /**
     * An engine with a transposition table of `hash_mb` MiB (16 when not given).
     */
    constructor(hash_mb?: number | null);
    /**
     * The page's game review, as the server's `POST /api/xq/review`: `on_event("position",
     * json)` per position, then `on_event("done", judgements)`; returns `""`, or the error.
     */
    review(body: string, on_event: Function): string;
}

/**
 * Answers `body` (JSON text) sent to `path` (`/xq/game`, `/huarong/solve`, …, as the server's
 * `/api{path}`) with `{"status": 200, "body": answer}`, or with the error's status and
 * `{"error", "code"?, "vars"?}` as the body: never throws.
 */
export function call(path: string, body: string): string;

/**
 * The static evaluation of `fen` in centipawns for the side to move: the installed net's, or
 * the hand-written evaluation's when none is installed (the numbers `qi engine eval` prints).
 *
 * # Errors
 * A FEN that does not read.
 */
export function evaluate(fen: string): number;

/**
 * The move number of an ICCS text (`h2e2`), legal or not.
 *
 * # Errors
 * A text that is not an ICCS move.
 */
export function iccsToMove(text: string): number;

/**
 * Installs the net in `bytes` (a `.nnue` file as `qi engine train` writes it) for the engines
 * made from now on; returns its checksum as 16 hexadecimal digits.
 *
 * # Errors
 * Bytes that are not a net of this version (the message says why); the net in use is kept.
 */
export function loadNet(bytes: Uint8Array | number[]): string;

/**
 * The ICCS text of move number `m` (`h2e2`).
 *
 * # Errors
 * A number that is not a move.
 */
export function moveToIccs(m: number): string;

/**
 * The checksum of the installed net (16 hexadecimal digits), or `undefined` when none is.
 */
export function netChecksum(): string | undefined;

/**
 * Goes back to the hand-written evaluation for the engines made from now on.
 */
export function unloadNet(): void;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_board_free: (a: number, b: number) => void;
    readonly __wbg_engine_free: (a: number, b: number) => void;
    readonly board_countLegalMoves: (a: number) => number;
    readonly board_fen: (a: number) => [number, number];
    readonly board_isCheck: (a: number) => number;
    readonly board_isLegal: (a: number, b: number) => number;
    readonly board_legalMoves: (a: number) => [number, number];
    readonly board_legalMovesInto: (a: number, b: number, c: number, d: any) => number;
    readonly board_moves: (a: number) => [number, number];
    readonly board_new: (a: number, b: number) => [number, number, number];
    readonly board_notate: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly board_parseMove: (a: number, b: number, c: number) => [number, number, number];
    readonly board_perft: (a: number, b: number) => number;
    readonly board_play: (a: number, b: number) => [number, number];
    readonly board_premoveMoves: (a: number) => [number, number];
    readonly board_startFen: (a: number) => [number, number];
    readonly board_status: (a: number) => [number, number];
    readonly board_turn: (a: number) => [number, number];
    readonly board_undo: (a: number) => number;
    readonly board_whyIllegal: (a: number, b: number) => [number, number];
    readonly call: (a: number, b: number, c: number, d: number) => [number, number];
    readonly engine_analyse: (a: number, b: number, c: number, d: any) => [number, number];
    readonly engine_clear: (a: number) => void;
    readonly engine_go: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly engine_new: (a: number) => number;
    readonly engine_review: (a: number, b: number, c: number, d: any) => [number, number];
    readonly evaluate: (a: number, b: number) => [number, number, number];
    readonly iccsToMove: (a: number, b: number) => [number, number, number];
    readonly loadNet: (a: number, b: number) => [number, number, number, number];
    readonly moveToIccs: (a: number) => [number, number, number, number];
    readonly netChecksum: () => [number, number];
    readonly unloadNet: () => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
