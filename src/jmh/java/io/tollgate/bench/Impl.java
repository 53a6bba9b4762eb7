package io.tollgate.bench;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.SerializationConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.grid.hazelcast.Bucket4jHazelcast;
import io.github.bucket4j.grid.hazelcast.HazelcastProxyManager;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Clock;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.internal.hazelcast.BucketMapConfig;
import io.tollgate.internal.hazelcast.HazelcastBucketStore;
import io.tollgate.internal.limiter.Limiter;
import io.tollgate.internal.store.BucketStore;
import io.tollgate.internal.store.InMemoryBucketStore;
import io.tollgate.internal.store.StoreStack;
import io.tollgate.testing.TestRules;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** The implementations under comparison, each behind {@link ComparedLimiter}. */
enum Impl {

    /** Tollgate, one entry-processor call per decision. */
    TOLLGATE_PLAIN("tollgate-plain") {
        @Override
        ComparedLimiter open(HazelcastInstance caller, Load load) {
            return new StoreLimiter(new HazelcastBucketStore(caller, TOLLGATE_MAP, true), load.tollgate(), 0);
        }
    },
    /**
     * Tollgate as it runs by default: the denial cache over hot-key coalescing over the entry
     * processor, with the default store timeout (250 ms: the deadline travels with each decision,
     * the caller waits that long and then fails open, as {@code on-store-failure=allow} does).
     */
    TOLLGATE_DEFAULT("tollgate-default") {
        @Override
        ComparedLimiter open(HazelcastInstance caller, Load load) {
            return tollgateDefault(caller, load, DEFAULT_TIMEOUT);
        }
    },
    /**
     * Tollgate with both of its layers off ({@code tollgate.hazelcast.coalescing=false}, {@code tollgate.denial-cache=false}):
     * the same engine and store timeout as {@link #TOLLGATE_DEFAULT}, over the bare store. What the layers cost or save
     * is the difference between the two.
     */
    TOLLGATE_BARE("tollgate-bare") {
        @Override
        ComparedLimiter open(HazelcastInstance caller, Load load) {
            BucketStore store = new StoreStack(false, 0).over(new HazelcastBucketStore(caller, TOLLGATE_MAP, true, DEFAULT_TIMEOUT));
            return new EngineLimiter(store, load, DEFAULT_TIMEOUT);
        }
    },
    /** Bucket4j's entry-processor integration, with its own serializers registered. */
    BUCKET4J("bucket4j") {
        @Override
        ComparedLimiter open(HazelcastInstance caller, Load load) {
            return new Bucket4jLimiter(caller.getMap(BUCKET4J_MAP), load.bucket4j());
        }
    },
    /** Read the state, decide on the caller, write it back: not atomic. */
    GET_PUT("get-put") {
        @Override
        ComparedLimiter open(HazelcastInstance caller, Load load) {
            return new GetPutLimiter(caller.getMap(BASELINE_MAP), load.tollgate());
        }
    },
    /** Read, decide on the caller, {@code replace(key, old, new)}; again on a conflict. */
    CAS("cas") {
        @Override
        ComparedLimiter open(HazelcastInstance caller, Load load) {
            return new CasLimiter(caller.getMap(BASELINE_MAP), load.tollgate());
        }
    },
    /** {@code lock(key)}, read, decide on the caller, write, {@code unlock(key)}. */
    LOCK("lock") {
        @Override
        ComparedLimiter open(HazelcastInstance caller, Load load) {
            return new LockLimiter(caller.getMap(BASELINE_MAP), load.tollgate());
        }
    },
    /** Tollgate's in-memory store (this JVM only): the lower bound. Needs no cluster. */
    MEMORY("memory") {
        @Override
        ComparedLimiter open(HazelcastInstance caller, Load load) {
            InMemoryBucketStore store = new InMemoryBucketStore(Clock.SYSTEM, 100_000); // tollgate.memory.max-entries default
            TokenBucket bucket = load.tollgate();
            return (key, cost) -> store.acquireNow(key, bucket, cost).allowed();
        }

        @Override
        boolean clustered() {
            return false;
        }
    };

    static final String TOLLGATE_MAP = BucketMapConfig.DEFAULT_MAP_NAME;
    static final String BUCKET4J_MAP = "bucket4j-buckets";
    static final String BASELINE_MAP = "baseline-buckets";
    static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(250);
    /** Bucket4j's serializers take type ids from here up (its documentation's example value). */
    static final int BUCKET4J_TYPE_ID_BASE = 10_000;
    /** Tollgate's margin over the time until full, which Bucket4j's expiration is given too. */
    static final Duration EXPIRY_MARGIN = Duration.ofSeconds(2);

    final String id;

    Impl(String id) {
        this.id = id;
    }

    /** @param caller the member or client that makes the calls; {@code null} for {@link #MEMORY} */
    abstract ComparedLimiter open(HazelcastInstance caller, Load load);

    /** @return whether this implementation needs the Hazelcast cluster */
    boolean clustered() {
        return true;
    }

    static Impl of(String id) {
        for (Impl impl : values()) {
            if (impl.id.equals(id)) {
                return impl;
            }
        }
        throw new IllegalArgumentException("unknown implementation '" + id + "'");
    }

    /**
     * What every member of the comparison cluster gets besides Tollgate's own settings (which
     * {@link BenchCluster} adds for every map): Bucket4j's serializers, as its documentation
     * recommends for production, and the baselines' map in Hazelcast's default in-memory format,
     * BINARY, in which {@code replace(key, old, new)} compares serialized values (in OBJECT format it
     * would compare {@code long[]} by identity and never succeed).
     */
    static void configureMember(Config config) {
        addBucket4jSerializers(config.getSerializationConfig());
        config.addMapConfig(BucketMapConfig.create(BASELINE_MAP, 1_000_000, 1).setInMemoryFormat(InMemoryFormat.BINARY));
    }

    static void configureClient(ClientConfig config) {
        addBucket4jSerializers(config.getSerializationConfig());
    }

    private static void addBucket4jSerializers(SerializationConfig config) {
        HazelcastProxyManager.addCustomSerializers(config, BUCKET4J_TYPE_ID_BASE);
    }

    /**
     * @param timeout the store timeout; {@link Duration#ZERO} for none: no deadline travels with the
     *                decisions and the caller waits for every answer (as OverGrantTest does)
     */
    static ComparedLimiter tollgateDefault(HazelcastInstance caller, Load load, Duration timeout) {
        BucketStore store = StoreStack.DEFAULT.over(new HazelcastBucketStore(caller, TOLLGATE_MAP, true, timeout));
        return timeout.isZero() ? new StoreLimiter(store, load.tollgate(), 0) : new EngineLimiter(store, load, timeout);
    }

    /**
     * Tollgate's own engine over the store, as an application runs it: the store timeout, then the
     * rule's {@code on-store-failure=allow} (the default), which still denies a key denied moments ago.
     */
    static final class EngineLimiter implements ComparedLimiter {
        private final Limiter engine;
        private final io.tollgate.internal.config.RuleConfig rule;
        private final AtomicLong failures = new AtomicLong();
        private final AtomicLong failedAllowed = new AtomicLong();

        EngineLimiter(BucketStore store, Load load, Duration timeout) {
            this.engine = new Limiter(store, timeout);
            java.util.Map<String, String> properties = java.util.Map.of(
                    "tollgate.rules.bench.rate", load.tokens + "/" + load.period.toMillis() + "ms",
                    "tollgate.rules.bench.burst", Long.toString(load.burst));
            this.rule = TestRules.read(properties).rule("bench");
        }

        /** The engine keeps a key's bucket at {@code <rule>:<key>}: the caller's key is the store key without that prefix. */
        @Override
        public String callerKey(String storeKey) {
            String prefix = rule.name() + ":";
            if (!storeKey.startsWith(prefix) || !BucketKeys.of(rule.name(), storeKey.substring(prefix.length())).equals(storeKey)) {
                throw new IllegalArgumentException("'" + storeKey + "' is no key of the rule '" + rule.name() + "'");
            }
            return storeKey.substring(prefix.length());
        }

        @Override
        public boolean tryAcquire(String key, long cost) {
            io.tollgate.Decision decision = engine.check(rule, key, cost);
            if (decision.storeUnavailable()) {
                failures.incrementAndGet();
                if (decision.allowed()) {
                    failedAllowed.incrementAndGet();
                }
            }
            return decision.allowed();
        }

        @Override
        public long failures() {
            return failedAllowed.get();
        }

        @Override
        public String describeFailures() {
            return failures.get() + " store calls failed or timed out, " + failedAllowed.get() + " of them let through by on-store-failure=allow";
        }
    }

    private static long ttlMillis(Outcome outcome) {
        return TimeUnit.MICROSECONDS.toMillis(outcome.fullAfterMicros()) + EXPIRY_MARGIN.toMillis();
    }

    /** A Tollgate store, waited for as Tollgate's limiter waits for it. */
    static final class StoreLimiter implements ComparedLimiter {
        private final BucketStore store;
        private final TokenBucket bucket;
        private final long timeoutNanos;
        private final AtomicLong timeouts = new AtomicLong();
        private final AtomicLong errors = new AtomicLong();
        private volatile Throwable firstError;

        /** @param timeoutNanos how long to wait before failing open; 0 to wait for the answer */
        StoreLimiter(BucketStore store, TokenBucket bucket, long timeoutNanos) {
            this.store = store;
            this.bucket = bucket;
            this.timeoutNanos = timeoutNanos;
        }

        @Override
        public boolean tryAcquire(String key, long cost) throws Exception {
            if (timeoutNanos == 0) {
                return store.acquire(key, bucket, cost).toCompletableFuture().get().allowed();
            }
            try {
                return store.acquire(key, bucket, cost).toCompletableFuture().get(timeoutNanos, TimeUnit.NANOSECONDS).allowed();
            } catch (TimeoutException e) {
                timeouts.incrementAndGet();
                return true; // on-store-failure=allow, the default
            } catch (ExecutionException e) {
                errors.incrementAndGet(); // such as a decision the owner dropped, its deadline passed
                if (firstError == null) {
                    firstError = e.getCause();
                }
                return true;
            }
        }

        @Override
        public long failures() {
            return timeouts.get() + errors.get();
        }

        @Override
        public String describeFailures() {
            return timeouts.get() + " not answered within the timeout, " + errors.get() + " failed"
                    + (firstError == null ? "" : " (the first: " + firstError + ")");
        }

        @Override
        public void close() {
            store.close();
        }
    }

    /**
     * Bucket4j as its documentation shows it: one proxy manager, a proxy per request. Asks for the
     * remaining tokens too, as a limiter that answers 429 with {@code Retry-After} must (Tollgate's
     * decisions always carry them).
     */
    static final class Bucket4jLimiter implements ComparedLimiter {
        private final HazelcastProxyManager<String> proxies;
        private final Supplier<BucketConfiguration> configuration;

        Bucket4jLimiter(IMap<String, byte[]> map, BucketConfiguration configuration) {
            this.proxies = Bucket4jHazelcast.entryProcessorBasedBuilder(map)
                    .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(EXPIRY_MARGIN))
                    .build();
            this.configuration = () -> configuration;
        }

        @Override
        public boolean tryAcquire(String key, long cost) {
            return proxies.getProxy(key, configuration).tryConsumeAndReturnRemaining(cost).isConsumed();
        }
    }

    /** get, decide here, put: two round trips, and concurrent callers overwrite each other. */
    static final class GetPutLimiter implements ComparedLimiter {
        private final IMap<String, long[]> map;
        private final TokenBucket bucket;

        GetPutLimiter(IMap<String, long[]> map, TokenBucket bucket) {
            this.map = map;
            this.bucket = bucket;
        }

        @Override
        public boolean tryAcquire(String key, long cost) {
            Outcome outcome = bucket.tryConsume(map.get(key), cost, Clock.SYSTEM.nowMicros());
            if (outcome.newState() != null) {
                map.put(key, outcome.newState(), ttlMillis(outcome), TimeUnit.MILLISECONDS);
            }
            return outcome.allowed();
        }
    }

    /** get, decide here, then replace only if nobody wrote meanwhile; otherwise again. */
    static final class CasLimiter implements ComparedLimiter {
        private final IMap<String, long[]> map;
        private final TokenBucket bucket;

        CasLimiter(IMap<String, long[]> map, TokenBucket bucket) {
            this.map = map;
            this.bucket = bucket;
        }

        @Override
        public boolean tryAcquire(String key, long cost) {
            while (true) {
                long[] old = map.get(key);
                Outcome outcome = bucket.tryConsume(old, cost, Clock.SYSTEM.nowMicros());
                long[] next = outcome.newState();
                if (next == null) {
                    return outcome.allowed(); // a denial writes nothing: decided on the state just read
                }
                if (old == null
                        ? map.putIfAbsent(key, next, ttlMillis(outcome), TimeUnit.MILLISECONDS) == null
                        : map.replace(key, old, next)) {
                    return outcome.allowed();
                }
            }
        }
    }

    /** lock, get, decide here, put, unlock: four round trips, exact. */
    static final class LockLimiter implements ComparedLimiter {
        private final IMap<String, long[]> map;
        private final TokenBucket bucket;

        LockLimiter(IMap<String, long[]> map, TokenBucket bucket) {
            this.map = map;
            this.bucket = bucket;
        }

        @Override
        public boolean tryAcquire(String key, long cost) {
            map.lock(key);
            try {
                Outcome outcome = bucket.tryConsume(map.get(key), cost, Clock.SYSTEM.nowMicros());
                if (outcome.newState() != null) {
                    map.put(key, outcome.newState(), ttlMillis(outcome), TimeUnit.MILLISECONDS);
                }
                return outcome.allowed();
            } finally {
                map.unlock(key);
            }
        }
    }
}
