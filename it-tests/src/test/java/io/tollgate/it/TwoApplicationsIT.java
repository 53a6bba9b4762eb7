package io.tollgate.it;

import static io.tollgate.it.Http.header;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.it.payara.PayaraMicroProcess;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Two applications on one Payara Micro member: application A runs on two members of one Data Grid;
 * application B (its own map) is deployed next to A on the second member, then undeployed again. A must go on
 * deciding on every key, whichever member owns it: for each of {@value #KEYS} keys, four requests alternating
 * between the members get exactly 3 × 200 and a 429 (the rule {@code search}, burst 3 per hour), every one
 * decided by the store (with its {@code RateLimit} field). Payara Micro only (Liberty has no server-wide
 * Hazelcast); not Arquillian: the Payara Micro adapter starts one JVM per deployment, so the members are
 * {@link PayaraMicroProcess}es, which deploy and undeploy through Payara Micro's runtime API.
 */
@EnabledIfSystemProperty(named = "it.server", matches = "payara")
class TwoApplicationsIT {

    private static final int KEYS = 40;
    private static final int ENOUGH_WRONG = 5;
    private static final long FORMATION_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);

    @Test
    void undeployingOneApplicationLeavesTheOtherDecidingOnEveryKey() throws Exception {
        Path dir = Files.createDirectories(Path.of(System.getProperty("payara.tmpdir"), "two-applications"));
        Map<String, String> probeOfOneToken = Map.of("tollgate.rules.reports.burst", "1");
        Path a = export(Deployments.war("app-a", Deployments.contractConfig(probeOfOneToken)), dir);
        Path b = export(Deployments.war("app-b", Deployments.contractConfig(Map.of("tollgate.hazelcast.map", "app-b-buckets"))), dir);
        String cluster = System.getProperty("it.cluster.name") + "-two-applications";
        String portOne = System.getProperty("payara.http.a");
        String portTwo = System.getProperty("payara.http.b");
        try (PayaraMicroProcess one = PayaraMicroProcess.start("member-1", List.of("--clustername", cluster, "--port", portOne));
                PayaraMicroProcess two = PayaraMicroProcess.start("member-2", List.of("--clustername", cluster, "--port", portTwo))) {
            one.awaitReady();
            two.awaitReady();
            CompletableFuture<Void> onMemberOne = CompletableFuture.runAsync(() -> one.deploy("app-a", a));
            two.deploy("app-a", a);
            onMemberOne.get(5, TimeUnit.MINUTES);
            URL onOne = new URL("http://127.0.0.1:" + portOne + "/app-a/");
            URL onTwo = new URL("http://127.0.0.1:" + portTwo + "/app-a/");
            SharedBuckets.await(onOne, onTwo, FORMATION_TIMEOUT_NANOS);
            List<String> before = keysNotDecidedExactly(onOne, onTwo);

            two.deploy("app-b", b);
            HttpResponse<String> onB = Http.get(new URL("http://127.0.0.1:" + portTwo + "/app-b/"), "api/status");
            assertEquals(200, onB.statusCode(), "application B serves: " + Http.describe(onB));
            two.undeploy("app-b");
            List<String> after = keysNotDecidedExactly(onOne, onTwo);

            System.out.println("[it] payara: application A on two members, " + KEYS + " keys; not decided exactly: "
                    + before.size() + "; after B was deployed on member-2 and undeployed: " + after.size()
                    + (after.size() == ENOUGH_WRONG ? " (checking stopped there)" : "") + " (logs: " + one.log() + ", "
                    + two.log() + ")");
            assertEquals(List.of(), before, "with A alone, keys not decided exactly");
            assertEquals(List.of(), after, "keys not decided exactly after B came and went");
        }
    }

    /**
     * Four requests per fresh key, on member 1, 2, 1, 2: expected 200, 200, 200, 429, each with a
     * {@code RateLimit} field (decided by the store, not by {@code on-store-failure}). Stops after
     * {@value #ENOUGH_WRONG} wrong keys (a request the store does not answer waits for the store timeout).
     *
     * @return a line per key that was not decided so
     */
    private static List<String> keysNotDecidedExactly(URL one, URL two) {
        List<String> wrong = new ArrayList<>();
        for (int k = 0; k < KEYS && wrong.size() < ENOUGH_WRONG; k++) {
            String key = "key-" + UUID.randomUUID();
            List<String> answers = new ArrayList<>();
            boolean exact = true;
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> response = Http.get(i % 2 == 0 ? one : two, "api/search?q=tea", "X-Api-Key", key);
                String rateLimit = header(response, "RateLimit");
                answers.add((i % 2 == 0 ? "member-1 " : "member-2 ") + response.statusCode() + " " + rateLimit);
                exact &= response.statusCode() == (i < 3 ? 200 : 429) && rateLimit != null;
            }
            if (!exact) {
                wrong.add(key + ": " + answers);
            }
        }
        return wrong;
    }

    private static Path export(WebArchive war, Path dir) throws IOException {
        Path file = dir.resolve(war.getName());
        war.as(ZipExporter.class).exportTo(file.toFile(), true);
        return file;
    }
}
