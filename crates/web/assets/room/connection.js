// @ts-check
// The room's WebSocket: opened again with backoff when it closes, pinged every 2 s, and
// dropped and opened again when it falls silent (a network gone without a close).

// A ping every 2 s; no answer within 1.5 s shows "Reconnecting…", and a socket silent for 5 s
// is dropped and opened again.
const PING_EVERY_MS = 2000;
const PONG_LATE_MS = 1500;
const SILENCE_MS = 5000;
// A page hidden this long gets a new socket when it shows again rather than trusting the old one.
const WAKE_RECONNECT_MS = 2000;

/**
 * @typedef {object} ConnectionHooks
 * @property {() => void} onOpen a socket opened (the server sends the room's state first)
 * @property {(msg: any) => void} onMessage a message, parsed (text that is not JSON is ignored)
 * @property {() => void} onConnecting a socket is being opened
 * @property {() => void} onRetrying the socket closed: a new one opens after a pause
 * @property {() => void} onLate a ping is unanswered for a while
 * @property {() => Promise<boolean>} mayRetry asked before each retry: false stops trying
 */

export class Connection {
  /**
   * @param {string} url the socket's address
   * @param {ConnectionHooks} hooks
   */
  constructor(url, hooks) {
    this.url = url;
    this.hooks = hooks;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.backoff = 500;
    this.lastHeard = 0;
    this.pingSentAt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.reconnectTimer = undefined;
    this.stopped = false;
  }

  get isOpen() {
    return Boolean(this.socket && this.socket.readyState === WebSocket.OPEN);
  }

  open() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    this.hooks.onConnecting();
    socket.addEventListener('open', () => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      this.pingSentAt = 0;
      this.backoff = 500;
      this.hooks.onOpen();
    });
    socket.addEventListener('message', (e) => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.hooks.onMessage(msg);
    });
    socket.addEventListener('close', () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.retry();
    });
  }

  /** Opens a new socket after a pause that doubles each time (up to 8 s), unless told to stop. */
  async retry() {
    if (!(await this.hooks.mayRetry())) {
      this.stopped = true;
      return;
    }
    this.hooks.onRetrying();
    const wait = this.backoff * (0.75 + Math.random() * 0.5);
    this.backoff = Math.min(this.backoff * 2, 8000);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.open(), wait);
  }

  /** The browser is back online: try at once. */
  now() {
    if (this.stopped || this.isOpen) return;
    clearTimeout(this.reconnectTimer);
    this.backoff = 500;
    if (!this.socket) this.open();
  }

  /**
   * The page shows again (a phone woke it, or it came back from the back-forward cache) after
   * being hidden for `hiddenMs`: timers and the socket may have been frozen meanwhile, and a
   * socket can die without a close. A short absence only pings at once; a longer one, or a
   * socket that is not open, gets a new socket now, whose first message is the room's state.
   * @param {number} hiddenMs
   */
  wake(hiddenMs) {
    if (this.stopped) return;
    if (this.isOpen && hiddenMs < WAKE_RECONNECT_MS) {
      this.pingSentAt = Date.now();
      this.send({ type: 'ping' });
      return;
    }
    const old = this.socket;
    this.socket = null;
    if (old) old.close();
    clearTimeout(this.reconnectTimer);
    this.backoff = 500;
    this.open();
  }

  /** Called often: pings, and drops a socket that fell silent. */
  tick() {
    const now = Date.now();
    if (!this.isOpen) return;
    if (now - this.lastHeard > SILENCE_MS) {
      const dead = /** @type {WebSocket} */ (this.socket);
      this.socket = null;
      dead.close();
      this.retry();
    } else if (this.pingSentAt > this.lastHeard && now - this.pingSentAt > PONG_LATE_MS) {
      this.hooks.onLate();
    } else if (now - this.pingSentAt > PING_EVERY_MS) {
      this.pingSentAt = now;
      this.send({ type: 'ping' });
    }
  }

  /**
   * Sends `message` as JSON; false when no socket is open.
   * @param {object} message
   */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
