package io.tollgate.internal.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.core.Outcome;
import io.tollgate.internal.core.TokenBucket;
import io.tollgate.testing.Batches;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An application with Tollgate on a server's Hazelcast members, for tests that load it, with its own
 * copy of Tollgate's classes, in a class loader of its own: it registers its serialization on every
 * member, as it would on Payara, and decides from the first. The test reaches it by reflection,
 * through JDK and Hazelcast types only.
 */
public final class DeployedApplication implements AutoCloseable {

    private final List<LateFactoryRegistration> registrations = new ArrayList<>();
    private final HazelcastBucketStore store;
    private final TokenBucket bucket;

    /**
     * @param version the highest wire version this application claims to read (a test stands in for
     *                older and newer Tollgates with it)
     */
    public DeployedApplication(List<HazelcastInstance> members, String map, long burst, int version) throws Exception {
        for (HazelcastInstance member : members) {
            LateFactoryRegistration registration = register(member, version);
            if (registration == null) {
                throw new IllegalStateException("Tollgate's serialization could not be registered on " + member.getName());
            }
            registrations.add(registration);
        }
        store = new HazelcastBucketStore(members.get(0), map, true, Duration.ofSeconds(60));
        bucket = TokenBucket.of(Limit.of(burst, 1, Duration.ofHours(1)));
    }

    /** Registers with the version where this Tollgate takes one (Tollgate before shared factories does not). */
    private static LateFactoryRegistration register(HazelcastInstance member, int version) throws Exception {
        for (Method method : LateFactoryRegistration.class.getDeclaredMethods()) {
            if (method.getName().equals("register") && method.getParameterCount() == 2) {
                return (LateFactoryRegistration) method.invoke(null, member, version);
            }
        }
        return LateFactoryRegistration.register(member);
    }

    /** @return per cost, the tokens left after it or -1 if it was denied: one decision, or one batch for several costs */
    public long[] decide(String key, long[] costs) throws Exception {
        Outcome[] outcomes = costs.length == 1
                ? new Outcome[] {store.acquire(key, bucket, costs[0]).toCompletableFuture().get(60, TimeUnit.SECONDS)}
                : Batches.acquireAll(store, key, bucket, costs).toCompletableFuture().get(60, TimeUnit.SECONDS);
        long[] remaining = new long[outcomes.length];
        for (int i = 0; i < outcomes.length; i++) {
            remaining[i] = outcomes[i].allowed() ? outcomes[i].remaining() : -1;
        }
        return remaining;
    }

    @Override
    public void close() {
        store.close();
        registrations.forEach(LateFactoryRegistration::undo);
    }
}
