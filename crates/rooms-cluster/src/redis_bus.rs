//! The [`Bus`] over Redis.
//!
//! - Leases are keys `qi:lease:{room}` holding the owner's name, set with `NX PX` and renewed
//!   or released by scripts that first check the holder.
//! - Each instance reads its inbox, the channel `qi:inbox:{instance}`; a room's states go to
//!   `qi:room:{room}`. Payloads are the JSON of [`qi_rooms::wire`].
//! - Rate limits are fixed-window counters `qi:rate:{key}:{window}` (`INCR`, then `PEXPIRE`).
//! - The lobby's seeks are the hash `qi:lobby:seeks` (id to JSON), changed only by scripts, so
//!   that the bounds are checked and a seek taken atomically; each change is announced on
//!   `qi:lobby`, an accepted seek's instance is told on `qi:lobby:inbox:{instance}`, and each
//!   lobby beats `qi:lobby:alive:{instance}` (the seeks of one that stopped are removed).
//! - The games being played are the hash `qi:lobby:games` (room to [`LiveGame`] JSON), each
//!   written by the room's owner and removed by it (only if it is still the one that listed
//!   it) or by the heartbeat when the instance that listed it stopped; each change is
//!   announced on `qi:lobby` too.
//!
//! Commands go through a [`ConnectionManager`], which reconnects by itself. Subscriptions live
//! on a connection of their own: when it drops (Redis restarted), a task reconnects, subscribes
//! again to the inbox and every watched room, and reports [`Incoming::Reconnected`] so that the
//! hub fetches the states it may have missed.

use futures_util::StreamExt;
use qi_rooms::wire::{Envelope, InstanceId, WireState};
use qi_rooms::{Bus, BusError, BusFuture, Incoming, Lease, LiveGame, LobbyEvent, RoomId, SeekPosted, WireSeek, LEASE};
use redis::aio::{ConnectionManager, ConnectionManagerConfig, PubSubSink};
use redis::{AsyncCommands, Script};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How long one Redis command may take before it counts as failed.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(1);
/// Pause between attempts to reconnect the subscriber.
const RECONNECT_PAUSE: Duration = Duration::from_millis(250);

const RENEW: &str = r"
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
elseif not holder then
  if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
end
return 0";

const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0";

/// Opens a seek within the bounds. KEYS: the seeks. ARGV: id, JSON, address, per address,
/// max, the change channel, the poster's alive key, its expiry.
const POST_SEEK: &str = r"
local all = redis.call('HVALS', KEYS[1])
if #all >= tonumber(ARGV[5]) then return 1 end
local same = 0
for _, v in ipairs(all) do
  local ok, seek = pcall(cjson.decode, v)
  if ok and seek.address == ARGV[3] then same = same + 1 end
end
if same >= tonumber(ARGV[4]) then return 2 end
redis.call('SET', ARGV[7], '1', 'PX', ARGV[8])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PUBLISH', ARGV[6], 'changed')
return 0";

/// Removes and returns one seek. KEYS: the seeks. ARGV: id, the change channel.
const TAKE_SEEK: &str = r"
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('PUBLISH', ARGV[2], 'changed')
end
return v";

/// Removes seeks. KEYS: the seeks. ARGV: the change channel, then the ids.
const WITHDRAW_SEEKS: &str = r"
local gone = 0
for i = 2, #ARGV do gone = gone + redis.call('HDEL', KEYS[1], ARGV[i]) end
if gone > 0 then redis.call('PUBLISH', ARGV[1], 'changed') end
return gone";

/// Beats this lobby and removes the seeks and the games of lobbies that stopped. KEYS: the
/// seeks, the games. ARGV: the alive keys' prefix, the change channel, this instance, the expiry.
const LOBBY_HEARTBEAT: &str = r"
redis.call('SET', ARGV[1] .. ARGV[3], '1', 'PX', ARGV[4])
local alive = {}
local gone = 0
for k = 1, #KEYS do
  local all = redis.call('HGETALL', KEYS[k])
  for i = 1, #all, 2 do
    local ok, entry = pcall(cjson.decode, all[i + 1])
    local live = false
    if ok and type(entry) == 'table' and type(entry.instance) == 'string' then
      if alive[entry.instance] == nil then
        alive[entry.instance] = redis.call('EXISTS', ARGV[1] .. entry.instance) == 1
      end
      live = alive[entry.instance]
    end
    if not live then
      redis.call('HDEL', KEYS[k], all[i])
      gone = gone + 1
    end
  end
end
if gone > 0 then redis.call('PUBLISH', ARGV[2], 'changed') end
return gone";

/// Lists a game. KEYS: the games. ARGV: the room, the JSON, the change channel.
const ANNOUNCE_GAME: &str = r"
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PUBLISH', ARGV[3], 'changed')
return 1";

/// Takes a game off the list if this instance listed it. KEYS: the games. ARGV: the room, this
/// instance, the change channel.
const END_GAME: &str = r"
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return 0 end
local ok, game = pcall(cjson.decode, v)
if ok and type(game) == 'table' and game.instance ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[3], 'changed')
return 1";

const SEEKS: &str = "qi:lobby:seeks";
const GAMES: &str = "qi:lobby:games";
const LOBBY_CHANNEL: &str = "qi:lobby";
const ALIVE_PREFIX: &str = "qi:lobby:alive:";
/// A lobby that has not beaten for this long is gone, and its seeks with it.
const LOBBY_ALIVE: Duration = Duration::from_secs(5);

fn lobby_inbox(instance: &str) -> String {
    format!("qi:lobby:inbox:{instance}")
}

fn bus_error(e: redis::RedisError) -> BusError {
    BusError(e.to_string())
}

fn lease_key(room: &RoomId) -> String {
    format!("qi:lease:{room}")
}

fn room_channel(room: &RoomId) -> String {
    format!("qi:room:{room}")
}

fn inbox(instance: &str) -> String {
    format!("qi:inbox:{instance}")
}

struct Subscriber {
    /// The live subscription connection's command side, if connected.
    sink: Option<PubSubSink>,
    watched: HashSet<RoomId>,
}

/// Instances joined through one Redis server.
pub struct RedisBus {
    instance: InstanceId,
    commands: ConnectionManager,
    subscriber: Arc<tokio::sync::Mutex<Subscriber>>,
    renew: Script,
    release: Script,
    post_seek: Script,
    take_seek: Script,
    withdraw_seeks: Script,
    lobby_heartbeat: Script,
    announce_game: Script,
    end_game: Script,
    lease_ms: u64,
}

impl RedisBus {
    /// Connects to the Redis server at `url` (`redis://HOST:PORT`) as `instance`, delivering
    /// what arrives to `incoming`.
    ///
    /// # Errors
    /// When the URL is bad or the server cannot be reached.
    pub async fn connect(
        url: &str,
        instance: InstanceId,
        incoming: mpsc::UnboundedSender<Incoming>,
    ) -> Result<Arc<RedisBus>, BusError> {
        let client = redis::Client::open(url).map_err(bus_error)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(COMMAND_TIMEOUT))
            .set_response_timeout(Some(COMMAND_TIMEOUT))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(500));
        let commands = tokio::time::timeout(COMMAND_TIMEOUT * 3, client.get_connection_manager_with_config(config))
            .await
            .map_err(|_| BusError(format!("no answer from {url}")))?
            .map_err(bus_error)?;
        let subscriber = Arc::new(tokio::sync::Mutex::new(Subscriber { sink: None, watched: HashSet::new() }));
        // The first subscription is made here, so that a bad server fails the start-up.
        let stream = subscribe_all(&client, &instance, &subscriber).await?;
        tokio::spawn(read_subscriptions(client, instance.clone(), Arc::clone(&subscriber), incoming, stream));
        Ok(Arc::new(RedisBus {
            instance,
            commands,
            subscriber,
            renew: Script::new(RENEW),
            release: Script::new(RELEASE),
            post_seek: Script::new(POST_SEEK),
            take_seek: Script::new(TAKE_SEEK),
            withdraw_seeks: Script::new(WITHDRAW_SEEKS),
            lobby_heartbeat: Script::new(LOBBY_HEARTBEAT),
            announce_game: Script::new(ANNOUNCE_GAME),
            end_game: Script::new(END_GAME),
            lease_ms: u64::try_from(LEASE.as_millis()).unwrap_or(3000),
        }))
    }

    fn commands(&self) -> ConnectionManager {
        self.commands.clone()
    }
}

async fn timed<T>(f: impl std::future::Future<Output = redis::RedisResult<T>>) -> Result<T, BusError> {
    tokio::time::timeout(COMMAND_TIMEOUT, f)
        .await
        .map_err(|_| BusError("Redis did not answer in time".into()))?
        .map_err(bus_error)
}

/// Opens the subscription connection and subscribes to the inbox and every watched room.
async fn subscribe_all(
    client: &redis::Client,
    instance: &str,
    subscriber: &tokio::sync::Mutex<Subscriber>,
) -> Result<redis::aio::PubSubStream, BusError> {
    let pubsub = timed(client.get_async_pubsub()).await?;
    let (mut sink, stream) = pubsub.split();
    let mut sub = subscriber.lock().await;
    timed(sink.subscribe(&[inbox(instance), lobby_inbox(instance), LOBBY_CHANNEL.to_string()])).await?;
    let channels: Vec<String> = sub.watched.iter().map(room_channel).collect();
    if !channels.is_empty() {
        timed(sink.subscribe(channels)).await?;
    }
    sub.sink = Some(sink);
    Ok(stream)
}

async fn read_subscriptions(
    client: redis::Client,
    instance: InstanceId,
    subscriber: Arc<tokio::sync::Mutex<Subscriber>>,
    incoming: mpsc::UnboundedSender<Incoming>,
    mut stream: redis::aio::PubSubStream,
) {
    let my_inbox = inbox(&instance);
    let my_lobby = lobby_inbox(&instance);
    loop {
        while let Some(message) = stream.next().await {
            let channel = message.get_channel_name();
            let payload = message.get_payload_bytes();
            // A payload that does not parse is dropped: the sender is a newer or broken peer.
            let event = if channel == my_inbox {
                serde_json::from_slice::<Envelope>(payload).ok().map(Incoming::Message)
            } else if channel == LOBBY_CHANNEL {
                Some(Incoming::Lobby(LobbyEvent::Changed))
            } else if channel == my_lobby {
                serde_json::from_slice::<LobbyEvent>(payload).ok().map(Incoming::Lobby)
            } else {
                serde_json::from_slice::<WireState>(payload).ok().map(Incoming::State)
            };
            if let Some(event) = event {
                if incoming.send(event).is_err() {
                    return;
                }
            }
        }
        subscriber.lock().await.sink = None;
        // The connection is gone: reconnect until the server is back.
        loop {
            if incoming.is_closed() {
                return;
            }
            tokio::time::sleep(RECONNECT_PAUSE).await;
            if let Ok(next) = subscribe_all(&client, &instance, &subscriber).await {
                stream = next;
                break;
            }
        }
        if incoming.send(Incoming::Reconnected).is_err() {
            return;
        }
    }
}

impl Bus for RedisBus {
    fn instance(&self) -> &str {
        &self.instance
    }

    fn acquire<'a>(&'a self, room: &'a RoomId) -> BusFuture<'a, Lease> {
        Box::pin(async move {
            let mut con = self.commands();
            let key = lease_key(room);
            for _ in 0..3 {
                let set: Option<String> = timed(
                    redis::cmd("SET")
                        .arg(&key)
                        .arg(&self.instance)
                        .arg("NX")
                        .arg("PX")
                        .arg(self.lease_ms)
                        .query_async(&mut con),
                )
                .await?;
                if set.is_some() {
                    return Ok(Lease::Mine);
                }
                let holder: Option<String> = timed(con.get(&key)).await?;
                match holder {
                    Some(holder) if holder == self.instance => return Ok(Lease::Mine),
                    Some(holder) => return Ok(Lease::HeldBy(holder)),
                    // Expired between the two commands: try again.
                    None => {}
                }
            }
            Err(BusError(format!("the lease of room {room} keeps changing hands")))
        })
    }

    fn owner<'a>(&'a self, room: &'a RoomId) -> BusFuture<'a, Option<InstanceId>> {
        Box::pin(async move {
            let mut con = self.commands();
            timed(con.get(lease_key(room))).await
        })
    }

    fn renew<'a>(&'a self, room: &'a RoomId) -> BusFuture<'a, bool> {
        Box::pin(async move {
            let mut con = self.commands();
            let mut call = self.renew.key(lease_key(room));
            call.arg(&self.instance).arg(self.lease_ms);
            let renewed: i64 = timed(call.invoke_async(&mut con)).await?;
            Ok(renewed == 1)
        })
    }

    fn release<'a>(&'a self, room: &'a RoomId) -> BusFuture<'a, ()> {
        Box::pin(async move {
            let mut con = self.commands();
            let mut call = self.release.key(lease_key(room));
            call.arg(&self.instance);
            let _: i64 = timed(call.invoke_async(&mut con)).await?;
            Ok(())
        })
    }

    fn send<'a>(&'a self, to: &'a str, envelope: &'a Envelope) -> BusFuture<'a, bool> {
        Box::pin(async move {
            let payload = serde_json::to_vec(envelope).map_err(|e| BusError(e.to_string()))?;
            let mut con = self.commands();
            let receivers: i64 = timed(con.publish(inbox(to), payload)).await?;
            Ok(receivers > 0)
        })
    }

    fn publish<'a>(&'a self, state: &'a WireState) -> BusFuture<'a, ()> {
        Box::pin(async move {
            let payload = serde_json::to_vec(state).map_err(|e| BusError(e.to_string()))?;
            let mut con = self.commands();
            let _: i64 = timed(con.publish(room_channel(&state.room), payload)).await?;
            Ok(())
        })
    }

    fn watch<'a>(&'a self, room: &'a RoomId, on: bool) -> BusFuture<'a, ()> {
        Box::pin(async move {
            let mut sub = self.subscriber.lock().await;
            let changed = if on { sub.watched.insert(room.clone()) } else { sub.watched.remove(room) };
            // Without a connection the reconnecting task subscribes to what is watched then.
            if let (true, Some(sink)) = (changed, sub.sink.as_mut()) {
                if on {
                    timed(sink.subscribe(room_channel(room))).await?;
                } else {
                    timed(sink.unsubscribe(room_channel(room))).await?;
                }
            }
            Ok(())
        })
    }

    fn allow<'a>(&'a self, key: &'a str, limit: u32, window: Duration) -> BusFuture<'a, bool> {
        Box::pin(async move {
            let window_ms = u64::try_from(window.as_millis()).unwrap_or(u64::MAX).max(1);
            let now_ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0));
            let counter = format!("qi:rate:{key}:{}", now_ms / window_ms);
            let mut con = self.commands();
            let (count, _): (u64, i64) = timed(
                redis::pipe().atomic().incr(&counter, 1).pexpire(&counter, window_ms as i64 * 2).query_async(&mut con),
            )
            .await?;
            Ok(count <= u64::from(limit))
        })
    }

    fn post_seek<'a>(&'a self, seek: &'a WireSeek, per_address: usize, max: usize) -> BusFuture<'a, SeekPosted> {
        Box::pin(async move {
            let json = serde_json::to_string(seek).map_err(|e| BusError(e.to_string()))?;
            let mut con = self.commands();
            let mut call = self.post_seek.key(SEEKS);
            call.arg(&seek.id).arg(json).arg(&seek.address).arg(per_address).arg(max).arg(LOBBY_CHANNEL);
            call.arg(format!("{ALIVE_PREFIX}{}", self.instance)).arg(LOBBY_ALIVE.as_millis() as u64);
            let outcome: i64 = timed(call.invoke_async(&mut con)).await?;
            Ok(match outcome {
                0 => SeekPosted::Open,
                1 => SeekPosted::LobbyFull,
                _ => SeekPosted::AddressFull,
            })
        })
    }

    fn take_seek<'a>(&'a self, id: &'a str) -> BusFuture<'a, Option<WireSeek>> {
        Box::pin(async move {
            let mut con = self.commands();
            let mut call = self.take_seek.key(SEEKS);
            call.arg(id).arg(LOBBY_CHANNEL);
            let taken: Option<String> = timed(call.invoke_async(&mut con)).await?;
            // A seek that does not parse was written by a broken peer: it is gone all the same.
            Ok(taken.and_then(|json| serde_json::from_str(&json).ok()))
        })
    }

    fn withdraw_seeks<'a>(&'a self, ids: &'a [String]) -> BusFuture<'a, ()> {
        Box::pin(async move {
            if ids.is_empty() {
                return Ok(());
            }
            let mut con = self.commands();
            let mut call = self.withdraw_seeks.key(SEEKS);
            call.arg(LOBBY_CHANNEL).arg(ids);
            let _: i64 = timed(call.invoke_async(&mut con)).await?;
            Ok(())
        })
    }

    fn seeks(&self) -> BusFuture<'_, Vec<WireSeek>> {
        Box::pin(async move {
            let mut con = self.commands();
            let all: Vec<String> = timed(con.hvals(SEEKS)).await?;
            let mut seeks: Vec<WireSeek> = all.iter().filter_map(|json| serde_json::from_str(json).ok()).collect();
            seeks.sort_by(WireSeek::older);
            Ok(seeks)
        })
    }

    fn lobby_heartbeat(&self) -> BusFuture<'_, ()> {
        Box::pin(async move {
            let mut con = self.commands();
            let mut call = self.lobby_heartbeat.key(SEEKS);
            call.key(GAMES);
            call.arg(ALIVE_PREFIX).arg(LOBBY_CHANNEL).arg(&self.instance).arg(LOBBY_ALIVE.as_millis() as u64);
            let _: i64 = timed(call.invoke_async(&mut con)).await?;
            Ok(())
        })
    }

    fn tell_lobby<'a>(&'a self, to: &'a str, event: &'a LobbyEvent) -> BusFuture<'a, ()> {
        Box::pin(async move {
            let payload = serde_json::to_vec(event).map_err(|e| BusError(e.to_string()))?;
            let mut con = self.commands();
            let _: i64 = timed(con.publish(lobby_inbox(to), payload)).await?;
            Ok(())
        })
    }

    fn announce_game<'a>(&'a self, game: &'a LiveGame) -> BusFuture<'a, ()> {
        Box::pin(async move {
            let json = serde_json::to_string(game).map_err(|e| BusError(e.to_string()))?;
            let mut con = self.commands();
            let mut call = self.announce_game.key(GAMES);
            call.arg(game.room.as_str()).arg(json).arg(LOBBY_CHANNEL);
            let _: i64 = timed(call.invoke_async(&mut con)).await?;
            Ok(())
        })
    }

    fn end_game<'a>(&'a self, room: &'a RoomId) -> BusFuture<'a, ()> {
        Box::pin(async move {
            let mut con = self.commands();
            let mut call = self.end_game.key(GAMES);
            call.arg(room.as_str()).arg(&self.instance).arg(LOBBY_CHANNEL);
            let _: i64 = timed(call.invoke_async(&mut con)).await?;
            Ok(())
        })
    }

    fn live_games(&self) -> BusFuture<'_, Vec<LiveGame>> {
        Box::pin(async move {
            let mut con = self.commands();
            let all: Vec<String> = timed(con.hvals(GAMES)).await?;
            // A listing that does not parse was written by a newer or broken peer: not shown.
            Ok(all.iter().filter_map(|json| serde_json::from_str(json).ok()).collect())
        })
    }
}
