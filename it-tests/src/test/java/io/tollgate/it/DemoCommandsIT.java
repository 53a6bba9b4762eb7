package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.readme.Markdown;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * README.md's "Commands": the curl loop run against the demo's application (the sample with the configuration
 * it ships, deployed under the context root the loop's URL names) prints the status codes the README shows
 * under it. The README's output is for a loop that runs within one second, as it does on a quiet machine,
 * with every request decided by the store; a slower loop, or one where a busy machine had some answered by
 * the rule's policy (the default 250 ms timeout passed: a 200 without rate-limit headers, not charged), is
 * held to what the rule allows in the time it took (the sample's {@code search}: 5 at once, then 1 a second),
 * and the test says so.
 */
@ExtendWith(ArquillianExtension.class)
@DisabledIfSystemProperty(named = "it.server", matches = "quarkus",
        disabledReason = "the README's demo commands call Open Liberty's context root; the Quarkus demo is ./demo.sh quarkus")
class DemoCommandsIT {

    private static final Pattern LOOP = Pattern.compile("for \\w+ in \\$\\(seq 1 (\\d+)\\); do curl .*?(http://\\S+);.*");
    private static final Pattern OUTPUT = Pattern.compile("#((?:\\s+\\d{3})+)\\s*");
    private static final double SEARCH_PER_SECOND = 1;

    /** The loop of the README: how many requests, to which URL, and the output shown under it. */
    private record Loop(int count, URI url, List<Integer> output) {
    }

    @Deployment(testable = false)
    static WebArchive deployment() {
        String contextRoot = loop().url().getPath().split("/")[1];
        return Deployments.sampleAsShipped(contextRoot);
    }

    @ArquillianResource
    URL base;

    @Test
    void theCurlLoopPrintsWhatTheReadmeShows() {
        Loop loop = loop();
        URI server = URI.create(base.toExternalForm());
        URI target = server.resolve(loop.url().getRawPath() + "?" + loop.url().getRawQuery());
        RawResponse.get(server.resolve("api/status")); // unlimited: the server is warm, the bucket untouched

        List<Integer> codes = new ArrayList<>();
        int byPolicy = 0;
        long start = System.nanoTime();
        for (int i = 0; i < loop.count(); i++) {
            RawResponse response = RawResponse.get(target);
            codes.add(response.status());
            if (response.status() == 200 && !response.headers().containsKey("RateLimit")) {
                byPolicy++;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("[it] %s: the README's curl loop: %s in %.3f s; README: %s%n", Deployments.SERVER, codes, seconds,
                loop.output());
        if (seconds < 1 && byPolicy == 0) {
            assertEquals(loop.output(), codes, "the README's curl loop prints something else");
            return;
        }
        System.out.printf("[it] %s: the loop took %.3f s, %d request(s) answered by the policy, not the second and the store the "
                + "README's output assumes; checked against the rule instead%n", Deployments.SERVER, seconds, byPolicy);
        long burst = loop.output().stream().takeWhile(c -> c == 200).count();
        assertEquals(loop.output().subList(0, (int) burst), codes.subList(0, (int) burst), "the burst");
        long extra = codes.stream().filter(c -> c == 200).count() - burst - byPolicy;
        assertTrue(codes.stream().allMatch(c -> c == 200 || c == 429), codes.toString());
        assertTrue(extra <= Math.floor(SEARCH_PER_SECOND * seconds), extra + " more 200s of the store than the burst in " + seconds + " s");
    }

    private static Loop loop() {
        for (Markdown.Block block : ReadmeExamples.readme().section("Commands")) {
            List<String> lines = block.text().lines().toList();
            for (int i = 0; i + 1 < lines.size(); i++) {
                Matcher loop = LOOP.matcher(lines.get(i).strip());
                Matcher output = OUTPUT.matcher(lines.get(i + 1).strip());
                if (loop.matches() && output.matches()) {
                    List<Integer> codes = new ArrayList<>();
                    for (String code : output.group(1).strip().split("\\s+")) {
                        codes.add(Integer.parseInt(code));
                    }
                    return new Loop(Integer.parseInt(loop.group(1)), URI.create(loop.group(2)), codes);
                }
            }
        }
        throw new AssertionError("README.md's Commands have no curl loop followed by its output (# 200 200 ...)");
    }
}
