package io.tollgate.integration.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.Fuzz;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.RawHttp.Header;
import io.tollgate.testing.SharedCluster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Keys from a header, a query parameter and the path, with control characters, raw bytes, every kind
 * of unicode and 10 000-character values. Each bucket holds one token: the first request of a key
 * passes, the next is denied. The Hazelcast map then holds exactly one entry per distinct key (so no
 * two long keys shared a bucket, not even a raw key forged as the hash of another), and every stored
 * key is bounded: rule, ':' and at most 64 characters.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class HostileKeyTest {

    private static final int HEADER_KEYS = 300;
    private static final int QUERY_KEYS = 200;
    private static final int PATH_KEYS = 100;

    private final HostileApp app;
    private final ExpectedBuckets buckets = new ExpectedBuckets(1);
    private final Set<String> distinct = new HashSet<>();
    private int requests;

    HostileKeyTest(HazelcastTestCluster cluster) {
        app = new HostileApp(cluster);
    }

    @BeforeEach
    void start() throws Exception {
        app.start(HostileApp.keyedResources());
    }

    @AfterEach
    void stop() {
        app.close();
    }

    @Test
    void headerKeysGetOneBoundedBucketEach() throws Exception {
        Random r = Fuzz.random("keys-header");
        List<byte[]> sent = new ArrayList<>();
        int longest = 0;
        for (int i = 0; i < HEADER_KEYS; i++) {
            byte[] value = KeyValues.headerValue(r, sent);
            sent.add(value);
            String key = HostileApp.headerValue(value);
            longest = Math.max(longest, value.length);
            checkKey("by-header", key, "/keys/header", List.of(Header.bytes("X-Api-Key", value)), "header key '" + Fuzz.show(key) + "'");
        }
        report("header", HEADER_KEYS, longest, oneBoundedBucketPerKey("by-header"));
    }

    @Test
    void queryKeysGetOneBoundedBucketEach() throws Exception {
        Random r = Fuzz.random("keys-query");
        List<String> sent = new ArrayList<>();
        int longest = 0;
        for (int i = 0; i < QUERY_KEYS; i++) {
            String key = KeyValues.text(r, sent);
            sent.add(key);
            longest = Math.max(longest, key.length());
            checkKey("by-query", key, "/keys/query?api_key=" + Fuzz.percentEncode(key), List.of(), "query key '" + Fuzz.show(key) + "'");
        }
        report("query", QUERY_KEYS, longest, oneBoundedBucketPerKey("by-query"));
    }

    @Test
    void pathSegmentsGetOneBoundedBucketEach() throws Exception {
        Random r = Fuzz.random("keys-path");
        List<String> sent = new ArrayList<>();
        int longest = 0;
        for (int i = 0; i < PATH_KEYS; i++) {
            String segment = KeyValues.text(r, sent).replace("/", "").replace(";", "");
            if (segment.isEmpty() || segment.chars().allMatch(c -> c == '.')) {
                segment = "s" + segment;
            }
            sent.add(segment);
            longest = Math.max(longest, segment.length());
            checkKey("by-path", "/keys/path/" + segment, "/keys/path/" + Fuzz.percentEncode(segment), List.of(),
                    "path segment '" + Fuzz.show(segment) + "'");
        }
        report("path", PATH_KEYS, longest, oneBoundedBucketPerKey("by-path"));
    }

    /** Encodings that do not decode: whatever the application sees, never a 5xx, and the same value the same bucket. */
    @Test
    void brokenPercentEncodingsAreNoServerErrorAndTheSameValueIsTheSameBucket() throws Exception {
        String[] broken = {"%zz", "%", "%E0%A4", "%FF", "%C0%80", "%ED%A0%80", "%F4%90%80%80", "%%", "%0", "%u0041", "%2"};
        for (String raw : broken) {
            String target = "/keys/composite?region=" + raw;
            int first = app.send("GET", target, List.of(Header.of("X-Api-Key", "broken")), "query " + raw).status();
            assertThat(first).as(raw).isIn(200, 400, 404, 429);
            int second = app.send("GET", target, List.of(Header.of("X-Api-Key", "broken")), "query " + raw).status();
            assertThat(second).as(raw + ": the same value twice is the same bucket" + Fuzz.replay()).isIn(400, 404, 429);
        }
        Map<String, Integer> stored = boundedStoredBuckets();
        System.out.printf("hostile keys: %d broken encodings, %d requests; buckets in the map %s%n", broken.length, 2 * broken.length,
                stored);
    }

    /** Sends the key twice: the first request passes iff the key is new, the second never does. */
    private void checkKey(String rule, String key, String target, List<Header> headers, String what) throws Exception {
        distinct.add(key);
        boolean fresh = buckets.charge(rule + ":" + key, 1);
        assertThat(app.send("GET", target, headers, what).status()).as(what + Fuzz.replay()).isEqualTo(fresh ? 200 : 429);
        assertThat(app.send("GET", target, headers, what).status()).as(what + ", again" + Fuzz.replay()).isEqualTo(429);
        requests += 2;
    }

    /** @return the number of buckets of {@code rule} in the map, checked to be one per distinct key, each bounded */
    private int oneBoundedBucketPerKey(String rule) {
        Integer stored = boundedStoredBuckets().get(rule);
        assertThat(stored).as("buckets of " + rule + ": one per distinct key" + Fuzz.replay()).isEqualTo(distinct.size());
        return stored;
    }

    /** @return the number of buckets in the map by rule, every stored key checked to be bounded */
    private Map<String, Integer> boundedStoredBuckets() {
        Map<String, Integer> stored = new HashMap<>();
        for (Object entry : app.storedKeys()) {
            String storeKey = (String) entry;
            String rule = storeKey.substring(0, storeKey.indexOf(':'));
            String key = storeKey.substring(rule.length() + 1);
            assertThat(key.length()).as("stored key of rule " + rule + ": " + Fuzz.show(storeKey)).isLessThanOrEqualTo(BucketKeys.MAX_RAW_LENGTH);
            stored.merge(rule, 1, Integer::sum);
        }
        return stored;
    }

    private void report(String source, int generated, int longest, int stored) {
        System.out.printf("hostile keys: %d %s keys generated (longest %d characters), %d requests; %d distinct keys, %d buckets%n",
                generated, source, longest, requests, distinct.size(), stored);
    }
}
