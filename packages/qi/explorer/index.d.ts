// Types of the explorer module (explorer/index.js).

/** The ECCO opening: code and names. */
export interface Ecco { code: string; name_zh: string; name_en: string | null }
/** A game to open for a move: the first that played it here. */
export interface TypicalGame { id: string; fen: string; moves: string; result: string; ply: number }
/** One move from the position. */
export interface ExplorerMove {
  move: string; wxf: string; chinese: string; traditional: string; vietnamese: string;
  games: number; red: number; draw: number; black: number;
  typical: TypicalGame;
}
/** The explorer's report, as `qi explore --json` prints it. */
export interface ExplorerReport {
  fen: string; ecco: Ecco | null; depth: number;
  total: number; red: number; draw: number; black: number;
  moves: ExplorerMove[];
}
/** Loads the explorer's WebAssembly once. */
export function loadExplorer(source?: WebAssembly.Module | BufferSource): Promise<void>;
/** The report for a position (moves in any notation), from the master games, the user's, or both. */
export function explore(position: { fen?: string; moves?: string[] }, sources?: 'all' | 'master' | 'mine'): ExplorerReport;
/** The ECCO opening of a game, or null. */
export function classify(game: { fen?: string; moves?: string[] }): Ecco | null;
/** Adds games to the user's explorer (all or none). */
export function addGames(games: { id: string; fen?: string; moves: string[]; result?: string }[]): { added: number; games: number };
/** The user's explorer packed, to keep. */
export function myGames(): Uint8Array;
/** How many games the user's explorer holds. */
export function myGamesCount(): number;
/** Replaces the user's explorer with packed games. */
export function loadMyGames(bytes: Uint8Array): { games: number };
/** Empties the user's explorer. */
export function clearMyGames(): void;
