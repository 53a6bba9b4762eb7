package io.tollgate.hosts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The three Liberty hosts of the partition tests: Tollgate's embedded member on each finds the others through one DNS
 * name that resolves to the three hosts ({@code tollgate.hazelcast.kubernetes.service-dns}, as on Kubernetes with a
 * headless Service; the name is in each host's {@code /etc/hosts}); hosts 1 and 2 have {@code tollgate.cluster.quorum=2},
 * host 3 none, so that a minority with a quorum (host 1 cut off) and one without (host 3) can both be tried.
 */
final class QuorumHosts {

    static final int COUNT = 3;
    static final String MEMBERS_NAME = "members.shop.test";

    private QuorumHosts() {
    }

    /** @return the three servers, started with {@code war}, once they decide on one set of buckets */
    static List<LibertyHost> start(Hosts hosts, WebArchive war) {
        String cluster = "tollgate-hosts-" + Rig.run() + "-" + UUID.randomUUID().toString().substring(0, 8);
        hosts.hostsFile(MEMBERS_NAME, 1, 2, 3);
        long t0 = System.nanoTime();
        List<LibertyHost> servers = new ArrayList<>();
        for (int i = 1; i <= COUNT; i++) {
            servers.add(LibertyHost.on(hosts, i).war(war)
                    .config("tollgate.hazelcast.interface", hosts.address(i))
                    .config("tollgate.hazelcast.kubernetes.service-dns", MEMBERS_NAME)
                    .config("tollgate.hazelcast.cluster-name", cluster)
                    .config("tollgate.cluster.quorum", i == 3 ? "0" : "2")
                    .start());
        }
        servers.forEach(server -> server.awaitStarted().requireStarted());
        System.out.println("[it] " + COUNT + " Liberty servers started in " + (System.nanoTime() - t0) / 1_000_000
                + " ms; members found through " + MEMBERS_NAME);
        SharedBuckets.await(servers, Duration.ofSeconds(180));
        return servers;
    }
}
