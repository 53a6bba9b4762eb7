package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.Internals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The wire version members send is the highest every data member reads: version 0 while any data
 * member advertises nothing (an older Tollgate, or none), falling back to 0 as soon as such a member
 * joins, rising again when it leaves; lite members do not count; a client always sends 0. The
 * periodic refresh is set to an hour here, so each change seen comes from the membership or
 * advertisement events alone.
 */
@Tag("hazelcast")
@Isolated
class WireVersionsTest {

    private static final String MAP = BucketMapConfig.DEFAULT_MAP_NAME;

    @BeforeAll
    static void noPeriodicRefresh() {
        WireVersions.refreshSeconds = TimeUnit.HOURS.toSeconds(1);
    }

    @AfterAll
    static void periodicRefreshAsUsual() {
        WireVersions.refreshSeconds = WireVersions.REFRESH_SECONDS;
    }

    @Test
    void everyDataMemberMustReadAVersionBeforeItIsSent() throws Exception {
        List<HazelcastInstance> extra = new ArrayList<>();
        try (HazelcastTestCluster cluster = HazelcastTestCluster.start(2)) {
            HazelcastBucketStore first = new HazelcastBucketStore(cluster.member(0), MAP, true);
            awaitAdvertisements(cluster.member(0), 1);
            // member 1 runs no Tollgate (or one older than wire versions): it reads version 0 only
            assertThat(recomputed(cluster.member(0), first)).isZero();

            HazelcastBucketStore second = new HazelcastBucketStore(cluster.member(1), MAP, true);
            await("both members read the newest version", first::wireVersion, Serialization.WIRE_VERSION);
            await("both members read the newest version, seen from member 1", second::wireVersion, Serialization.WIRE_VERSION);

            // a lite member holds no data and reads no processor: it does not count
            Config liteConfig = HazelcastTestCluster.memberConfig(cluster.name(), 2, HazelcastTestCluster.freePorts(1).get(0),
                    List.of(cluster.address(0), cluster.address(1)), true).setLiteMember(true);
            extra.add(Hazelcast.newHazelcastInstance(liteConfig));
            assertThat(cluster.member(0).getCluster().getMembers()).hasSize(3);
            assertThat(recomputed(cluster.member(0), first)).isEqualTo(Serialization.WIRE_VERSION);

            // a data member without Tollgate joins: nothing is sent in a newer version than 0 from then on ...
            HazelcastInstance plain = Hazelcast.newHazelcastInstance(HazelcastTestCluster.memberConfig(cluster.name(), 3,
                    HazelcastTestCluster.freePorts(1).get(0), List.of(cluster.address(0), cluster.address(1)), true));
            extra.add(plain);
            await("a member that advertises nothing joined", first::wireVersion, 0);
            await("a member that advertises nothing joined, seen from member 1", second::wireVersion, 0);
            // ... until it leaves
            plain.getLifecycleService().terminate();
            await("the member that advertises nothing left", first::wireVersion, Serialization.WIRE_VERSION);

            // a second store on a member shares its advertisement; the member withdraws it with its last store
            HazelcastBucketStore another = new HazelcastBucketStore(cluster.member(1), MAP, true);
            awaitAdvertisements(cluster.member(0), 2);
            second.close();
            assertThat(recomputed(cluster.member(0), first)).isEqualTo(Serialization.WIRE_VERSION);
            another.close();
            await("member 1 closed its last store", first::wireVersion, 0);

            // a client has no way to know its members' Tollgate: it sends version 0
            HazelcastBucketStore client = new HazelcastBucketStore(cluster.client(), MAP, true);
            assertThat(client.wireVersion()).isZero();
            first.close();
            client.close();
            awaitAdvertisements(cluster.member(1), 0);
            Set<String> negotiating = Internals.staticMapKeys(WireVersions.class, "BY_MEMBER"); // members negotiating
            assertThat(negotiating).as("members still negotiating").doesNotContain(cluster.member(0).getName(), cluster.member(1).getName());
            if (negotiating.isEmpty()) { // the timer is the JVM's: it ends with the last negotiation, of whichever test
                assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("tollgate-wire-versions")
                        && t.isAlive() && waitForEnd(t));
            } else {
                System.out.println("wire versions: the timer stays for the stores other tests left open on " + negotiating);
            }
        } finally {
            extra.forEach(member -> member.getLifecycleService().terminate());
        }
    }

    /** @return the store's version after a recompute on {@code member} now (a new store recomputes as it starts) */
    private static int recomputed(HazelcastInstance member, HazelcastBucketStore store) {
        new HazelcastBucketStore(member, MAP, true, Duration.ZERO, false).close();
        return store.wireVersion();
    }

    private static boolean waitForEnd(Thread thread) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return thread.isAlive();
    }

    private static void awaitAdvertisements(HazelcastInstance member, int count) throws InterruptedException {
        await("advertisements seen by " + member.getName(), () -> member.getReplicatedMap(WireVersions.MAP_NAME).size(), count);
    }

    private static void await(String what, IntSupplier actual, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (actual.getAsInt() != expected && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        assertThat(actual.getAsInt()).as(what).isEqualTo(expected);
    }
}
