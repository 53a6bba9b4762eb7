package io.tollgate.internal.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.tollgate.testing.Await;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.SharedCluster;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What an instance knows of its cluster: its members, the instances sharing its map, when to catch up. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class ClusterViewTest {

    @Test
    void instancesAreTheMostCountedOverTheLastTwoMinutes() {
        try (ClusterTasks tasks = new ClusterTasks()) {
            ClusterView view = new ClusterView("m", () -> "nowhere", tasks);
            view.counted(0, 3);
            view.counted(60_000, 1);
            assertThat(view.instances()).as("three a minute ago still count").isEqualTo(3);
            view.counted(120_001, 1);
            assertThat(view.instances()).isEqualTo(1);
        }
    }

    /**
     * On members, the members count as instances; a client counts the instances that advertise its map: the members'
     * and its own, not those of another map.
     */
    @Test
    void countsTheMembersAndTheInstancesOfItsOwnMapOnly(HazelcastTestCluster cluster) {
        String map = "view-" + UUID.randomUUID();
        List<ClusterView> views = new CopyOnWriteArrayList<>();
        try (ClusterTasks tasks = new ClusterTasks()) {
            for (int i = 0; i < 2; i++) {
                views.add(started(new ClusterView(map, () -> "test", tasks), cluster.member(i)));
            }
            ClusterView client = started(new ClusterView(map, () -> "test", tasks), cluster.client());
            ClusterView otherMap = started(new ClusterView("other-" + map, () -> "test", tasks), cluster.client());
            views.add(client);
            views.add(otherMap);
            int members = cluster.members().size();
            Await.until("the client counting the two members' instances and its own", Duration.ofSeconds(60),
                    () -> client.instances() == 3);
            assertThat(views.get(0).instances()).as("a member counts the members").isEqualTo(members);
            assertThat(client.members()).isEqualTo(members);
            assertThat(otherMap.instances()).as("alone on its map").isEqualTo(1);
        } finally {
            views.forEach(ClusterView::close);
        }
    }

    private static ClusterView started(ClusterView view, HazelcastInstance instance) {
        view.attach(instance);
        return view.start();
    }

    @Test
    void anInstanceThatStartedAloneCountsThoseThatJoinLater() {
        List<ClusterView> views = new CopyOnWriteArrayList<>();
        List<HazelcastInstance> joiners = new CopyOnWriteArrayList<>();
        try (ClusterTasks tasks = new ClusterTasks(); HazelcastTestCluster one = HazelcastTestCluster.start(1)) {
            ClusterView first = new ClusterView("m", () -> "test", tasks);
            first.attach(one.member(0));
            views.add(first.start());
            Await.until("the first instance counted alone", Duration.ofSeconds(30), () -> first.instances() == 1);
            for (int i = 1; i <= 2; i++) {
                int port = HazelcastTestCluster.freePorts(1).get(0);
                HazelcastInstance joiner = Hazelcast.newHazelcastInstance(HazelcastTestCluster.memberConfig(one.name(), i, port,
                        List.of(one.address(0), "127.0.0.1:" + port), true));
                joiners.add(joiner);
                ClusterView view = new ClusterView("m", () -> "test", tasks);
                view.attach(joiner);
                views.add(view.start());
            }
            Await.until("the first instance counting the two that joined", Duration.ofSeconds(60), () -> first.instances() == 3);
        } finally {
            views.forEach(ClusterView::close);
            joiners.forEach(joiner -> joiner.getLifecycleService().terminate());
        }
    }

    @Test
    void aMemberThatJoinsMakesTheViewCatchUp() {
        List<Boolean> catchUps = new CopyOnWriteArrayList<>();
        try (ClusterTasks tasks = new ClusterTasks(); HazelcastTestCluster one = HazelcastTestCluster.start(1)) {
            ClusterView view = new ClusterView("m", () -> "test", tasks);
            view.onCatchUp(catchUps::add);
            view.attach(one.member(0));
            assertThat(view.members()).isEqualTo(1);
            int port = HazelcastTestCluster.freePorts(1).get(0);
            HazelcastInstance joiner = Hazelcast.newHazelcastInstance(HazelcastTestCluster.memberConfig(one.name(), 1, port,
                    List.of(one.address(0), "127.0.0.1:" + port), true));
            try {
                Await.until("a catch-up after the join", Duration.ofSeconds(60), () -> catchUps.contains(true));
                assertThat(view.members()).isEqualTo(2);
                joiner.shutdown();
                Await.until("the member gone", Duration.ofSeconds(60), () -> view.members() == 1);
            } finally {
                joiner.getLifecycleService().terminate();
                view.close();
            }
        }
    }
}
