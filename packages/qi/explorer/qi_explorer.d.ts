/* tslint:disable */
/* eslint-disable */

/**
 * Adds `games` (`[{id, fen?, moves, result?}]`) to the user's explorer: `{added, games}`.
 */
export function addGames(games: string): string;

/**
 * The ECCO opening of the game of `request` (`{fen?, moves}`): `{code, name_zh, name_en}`, or
 * `null` when the table names none.
 */
export function classify(request: string): string;

/**
 * Empties the user's explorer.
 */
export function clearMyGames(): void;

/**
 * The explorer's report for the position of `request` (`{fen?, moves}`) from `sources`:
 * `all` (or empty), `master` or `mine`.
 */
export function explore(request: string, sources: string): string;

/**
 * Replaces the user's explorer with packed games (what [`my_games`] gave): `{games}`.
 */
export function loadMyGames(bytes: Uint8Array | number[]): string;

/**
 * The user's explorer, packed (`xiangqi-explorer`'s format), for the page to keep.
 */
export function myGames(): Uint8Array;

/**
 * How many games the user's explorer holds.
 */
export function myGamesCount(): number;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly addGames: (a: number, b: number) => [number, number];
    readonly classify: (a: number, b: number) => [number, number];
    readonly clearMyGames: () => void;
    readonly explore: (a: number, b: number, c: number, d: number) => [number, number];
    readonly loadMyGames: (a: number, b: number) => [number, number];
    readonly myGames: () => [number, number];
    readonly myGamesCount: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
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
