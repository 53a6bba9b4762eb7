package io.tollgate.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.app.ItemsResource;
import io.tollgate.app.KeysResource;
import io.tollgate.app.TenantKeys;
import io.tollgate.internal.core.BucketKeys;
import io.tollgate.testing.Fuzz;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.RawHttp;
import io.tollgate.testing.RawHttp.Header;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.TestApp;
import io.tollgate.testing.Tokens;
import jakarta.json.JsonObject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile input, generated rather than hand-picked (seeded; see {@link Fuzz}), over the real HTTP
 * stack and the Hazelcast store: stated costs, forwarding chains, tokens and keys that no polite
 * client sends. Each case is judged by an oracle written from the README, independently of the
 * code: a bad request is never a 5xx and never a free pass, which the tests prove by counting the
 * tokens of every bucket involved. Requests go over a plain socket, so control characters, raw bytes
 * and repeated headers reach the server as generated. CR and LF are left out: in a header value they
 * end the line, which makes another header line (or a malformed request) rather than another value.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class HostileInputTest {

    private final HazelcastTestCluster cluster;
    private TestApp app;
    private String mapName;

    HostileInputTest(HazelcastTestCluster cluster) {
        this.cluster = cluster;
        cluster.clock().set(2_300_000_000L * 1_000_000); // stopped: no bucket refills during a test
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
        if (mapName != null) {
            cluster.member(0).getMap(mapName).destroy();
        }
    }

    private void start(TestApp.Builder builder) throws Exception {
        mapName = "hostile-" + UUID.randomUUID();
        app = builder.hazelcast(cluster.member(1)).property("tollgate.hazelcast.map", mapName).start();
    }

    private RawHttp.Response send(String method, String target, List<Header> headers, String what) throws Exception {
        RawHttp.Response response = RawHttp.send(app.base(), method, target, headers);
        assertThat(response.status()).as("never a server error: " + what + " -> " + response + Fuzz.replay()).isLessThan(500);
        return response;
    }

    /** Buckets as the README describes them: {@code burst} tokens each, none refilled (the clock stands still). */
    private static final class Buckets {
        private final long burst;
        private final Map<String, Long> taken = new HashMap<>();

        Buckets(long burst) {
            this.burst = burst;
        }

        /** @return whether a request of {@code cost} for {@code key} must pass; if so, it is charged */
        boolean charge(String key, long cost) {
            long used = taken.getOrDefault(key, 0L);
            if (used + cost > burst) {
                return false;
            }
            taken.put(key, used + cost);
            return true;
        }

        long remaining(String key) {
            return burst - taken.getOrDefault(key, 0L);
        }

        int count() {
            return taken.size();
        }
    }

    // =============================================================================== 1. stated costs

    private static final long COST_BURST = 10_000_000;
    private static final long MIN_COST = 1;
    private static final long MAX_COST = 1000;
    private static final long DEFAULT_COST = 7;
    private static final int COST_CASES = 1000;

    /**
     * The README's rule: a stated cost is valid iff, without the spaces and tabs around it, it is a
     * whole number (ASCII digits only) within {@code [min-cost, max-cost]}, sent once.
     *
     * @return the stated cost, or -1 if it is invalid
     */
    private static long statedCost(List<byte[]> values) {
        if (values.size() != 1) {
            return -1;
        }
        String number = headerKey(values.get(0));
        if (number.isEmpty() || !number.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        BigInteger cost = new BigInteger(number);
        return cost.compareTo(BigInteger.valueOf(MIN_COST)) >= 0 && cost.compareTo(BigInteger.valueOf(MAX_COST)) <= 0
                ? cost.longValueExact() : -1;
    }

    private static byte[] costValue(Random r) {
        String digits = "0123456789";
        switch (r.nextInt(20)) {
            case 1:
                return ascii(Fuzz.pick(r, new String[] {"0", "00", "-0", "+0", "0.0", "0e0", "000000000000000000000000"}));
            case 2:
                return ascii("-" + (1 + r.nextInt(1_000_000)));
            case 3: // above max-cost, beyond a long, or thousands of digits
                switch (r.nextInt(3)) {
                    case 0:
                        return ascii(Long.toString(MAX_COST + 1 + r.nextInt(1_000_000)));
                    case 1:
                        return ascii("9" + Fuzz.string(r, digits, 18 + r.nextInt(10)));
                    default:
                        return ascii("1" + Fuzz.string(r, digits, 100 + r.nextInt(4000)));
                }
            case 4:
                return ascii(Fuzz.pick(r, new String[] {"1.5", "2.0", ".5", "5.", "0.999", "1000.0001", "3.14159", "1..2"}));
            case 5:
                return ascii(Fuzz.pick(r, new String[] {"1e3", "5E0", "1e-2", "2e+1", "0x10", "0X1f", "1_000", "1,000", "1 000", "0b11",
                    "017", "5d", "5f", "5L", "1/2", "2^3"}));
            case 6:
                return ascii(Fuzz.pick(r, new String[] {"NaN", "nan", "-NaN", "+NaN", "Infinity", "-Infinity", "+Infinity", "infinity",
                    "Inf", "1e999", "-1e999", "∞"}));
            case 7:
                return ascii("+" + (1 + r.nextInt((int) MAX_COST)));
            case 8: // digits of other scripts, as UTF-8 or as Latin-1 bytes
                return r.nextBoolean()
                        ? Fuzz.pick(r, new String[] {"５", "٥", "۵", "५", "৫", "⁵", "₅", "Ⅴ", "𝟓", "1٠", "٣٤"}).getBytes(StandardCharsets.UTF_8)
                        : new byte[] {'1', (byte) (int) Fuzz.pick(r, new Integer[] {0xB2, 0xB3, 0xB9, 0xBD, 0xBC})};
            case 9: { // a valid number with a control character inside or at an edge
                String n = Long.toString(MIN_COST + r.nextInt((int) MAX_COST));
                int at = r.nextInt(n.length() + 1);
                char control = (char) (int) Fuzz.pick(r, new Integer[] {0, 1, 7, 8, 11, 12, 27, 31, 127, 0x85, 0xA0, 0xAD});
                return (n.substring(0, at) + control + n.substring(at)).getBytes(StandardCharsets.ISO_8859_1);
            }
            case 10: // whitespace that HTTP does not strip, or nothing but whitespace
                return (Fuzz.pick(r, new String[] {"\u000b", "\u000c", "\u00a0", "", " \t "}) + (r.nextBoolean() ? "5" : "")
                        + Fuzz.pick(r, new String[] {"\u000b", "\u00a0", "\u0000", "", " "})).getBytes(StandardCharsets.ISO_8859_1);
            case 11:
                return new byte[0];
            case 12:
                return Fuzz.headerBytes(r, 1 + r.nextInt(40));
            case 13:
                return ascii(Fuzz.string(r, "!#$%&'()*+,-./0123456789:;<=>?@ABCDEFZabcdefxyz[]^_`{|}~ ", 1 + r.nextInt(20)));
            case 14: // thousands of leading zeros before a valid number
                return ascii("0".repeat(1 + r.nextInt(5000)) + (MIN_COST + r.nextInt((int) MAX_COST)));
            case 15: // the edges of the range and of a long
                return ascii(Fuzz.pick(r, new String[] {Long.toString(MIN_COST - 1), Long.toString(MIN_COST), Long.toString(MAX_COST),
                    Long.toString(MAX_COST + 1), Long.toString(Long.MAX_VALUE), "9223372036854775808", Long.toString(Long.MIN_VALUE),
                    "18446744073709551616", "4294967296", "2147483648"}));
            default: // in range, perhaps with leading zeros and the spaces and tabs HTTP allows around a value
                return ascii(ows(r) + "0".repeat(r.nextInt(3) == 0 ? r.nextInt(30) : 0) + (MIN_COST + r.nextInt((int) MAX_COST)) + ows(r));
        }
    }

    private static String ows(Random r) {
        return r.nextInt(4) == 0 ? Fuzz.string(r, " \t", 1 + r.nextInt(3)) : "";
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** @return the values of the cost header: usually one, sometimes none, sometimes many (up to 50 lines) */
    private static List<byte[]> costHeaders(Random r) {
        List<byte[]> values = new ArrayList<>();
        int kind = r.nextInt(10);
        if (kind == 0) {
            return values;
        }
        int count = kind == 1 ? 2 + r.nextInt(r.nextBoolean() ? 3 : 49) : 1;
        byte[] same = costValue(r);
        boolean identical = r.nextBoolean();
        for (int i = 0; i < count; i++) {
            values.add(identical ? same : costValue(r));
        }
        return values;
    }

    private static String describe(List<byte[]> values) {
        List<String> shown = new ArrayList<>();
        for (byte[] value : values) {
            shown.add("'" + Fuzz.show(Fuzz.latin1(value)) + "'");
        }
        return values.isEmpty() ? "(no cost header)" : String.join(" + ", shown);
    }

    /**
     * Each generated request is charged exactly what the oracle says (the stated cost, or the default
     * when the header is absent or, with {@code on-invalid-cost=default}, invalid) or refused with a
     * 400 problem that charges nothing. The bucket's {@code remaining} after every allowed request is
     * checked against the oracle's running total, so a single free or negative charge anywhere shows.
     */
    @ParameterizedTest(name = "on-invalid-cost={0}")
    @ValueSource(strings = {"reject", "default"})
    void statedCostsAreChargedExactlyOrRefusedAndNeverMintTokens(String onInvalidCost) throws Exception {
        Random r = Fuzz.random("costs-" + onInvalidCost);
        boolean reject = onInvalidCost.equals("reject");
        start(TestApp.builder().beans(ItemsResource.class)
                .property("tollgate.rules.upload.rate", "1/1h")
                .property("tollgate.rules.upload.burst", Long.toString(COST_BURST))
                .property("tollgate.rules.upload.cost", "header:X-Request-Weight")
                .property("tollgate.rules.upload.default-cost", Long.toString(DEFAULT_COST))
                .property("tollgate.rules.upload.min-cost", Long.toString(MIN_COST))
                .property("tollgate.rules.upload.max-cost", Long.toString(MAX_COST))
                .property("tollgate.rules.upload.on-invalid-cost", onInvalidCost));
        long charged = 0;
        int stated = 0;
        int absent = 0;
        int invalid = 0;
        int refused = 0;
        int repeated = 0;
        for (int i = 0; i < COST_CASES; i++) {
            List<byte[]> values = costHeaders(r);
            List<Header> headers = new ArrayList<>();
            for (byte[] value : values) {
                headers.add(Header.bytes("X-Request-Weight", value));
            }
            String what = "case " + i + ": " + describe(values);
            RawHttp.Response response = send("POST", "/items", headers, what);
            long cost = statedCost(values);
            repeated += values.size() > 1 ? 1 : 0;
            if (values.isEmpty()) {
                absent++;
                cost = DEFAULT_COST;
            } else if (cost >= 0) {
                stated++;
            } else {
                invalid++;
                cost = reject ? -1 : DEFAULT_COST;
            }
            if (cost < 0) {
                refused++;
                assertThat(response.status()).as(what + Fuzz.replay()).isEqualTo(400);
                assertThat(response.isProblem()).as(what).isTrue();
                JsonObject problem = response.json();
                assertThat(problem.getString("type")).as(what).isEqualTo("urn:tollgate:problem:invalid-cost");
                assertThat(problem.getInt("status")).isEqualTo(400);
                assertThat(problem.getString("rule")).isEqualTo("upload");
                assertThat(problem.getString("detail")).as(what).startsWith("header:x-request-weight = '");
                assertThat(response.header("RateLimit")).as(what).isNull();
            } else {
                charged += cost;
                assertThat(response.status()).as(what + Fuzz.replay()).isEqualTo(200);
                assertThat(response.remaining()).as(what + ": remaining after " + charged + " charged" + Fuzz.replay())
                        .isEqualTo(COST_BURST - charged);
            }
        }
        RawHttp.Response last = send("POST", "/items", List.of(Header.of("X-Request-Weight", "1")), "the last request");
        assertThat(last.remaining()).as("every token accounted for" + Fuzz.replay()).isEqualTo(COST_BURST - charged - 1);
        System.out.printf("hostile costs (on-invalid-cost=%s): %d cases generated: %d stated and valid, %d without the header, "
                + "%d invalid (%d sent several times), %d answered 400; %d tokens charged, %d remaining of %d, exactly as the oracle%n",
                onInvalidCost, COST_CASES, stated, absent, invalid, repeated, refused, charged + 1, last.remaining(), COST_BURST);
    }

    // =============================================================================== 2. forwarding chains

    private static final int UNTRUSTED_CASES = 400;
    private static final int TRUSTED_CASES = 300;
    private static final int IP_BURST = 5;

    /** An address the generator made, with its canonical text (RFC 5952 for IPv6, IPv4-mapped as IPv4). */
    private static final class Address {
        final byte[] bytes;

        Address(byte[] bytes) {
            this.bytes = bytes;
        }

        boolean isV4() {
            return bytes.length == 4;
        }

        String canonical() {
            return isV4() ? v4() : rfc5952(groups());
        }

        /** The README's key=ip: an IPv4 address as it is, an IPv6 one as its /64 ({@code tollgate.key.ipv6-prefix}). */
        String key() {
            if (isV4()) {
                return v4();
            }
            int[] network = groups();
            java.util.Arrays.fill(network, 4, 8, 0);
            return rfc5952(network) + "/64";
        }

        private String v4() {
            return (bytes[0] & 0xFF) + "." + (bytes[1] & 0xFF) + "." + (bytes[2] & 0xFF) + "." + (bytes[3] & 0xFF);
        }

        private int[] groups() {
            int[] groups = new int[8];
            for (int i = 0; i < 8; i++) {
                groups[i] = ((bytes[2 * i] & 0xFF) << 8) | (bytes[2 * i + 1] & 0xFF);
            }
            return groups;
        }

        /** @return one of the many ways to write this address; all mean the same client */
        String spelling(Random r) {
            if (isV4()) {
                switch (r.nextInt(6)) {
                    case 0:
                        return "::ffff:" + v4();
                    case 1:
                        return "::FFFF:" + v4();
                    case 2:
                        return String.format("0:0:0:0:0:ffff:%x:%x", ((bytes[0] & 0xFF) << 8) | (bytes[1] & 0xFF),
                                ((bytes[2] & 0xFF) << 8) | (bytes[3] & 0xFF));
                    default:
                        return v4();
                }
            }
            int[] g = groups();
            switch (r.nextInt(5)) {
                case 0: {
                    StringBuilder full = new StringBuilder();
                    for (int i = 0; i < 8; i++) {
                        full.append(i == 0 ? "" : ":").append(String.format("%04x", g[i]));
                    }
                    return full.toString();
                }
                case 1: {
                    StringBuilder plain = new StringBuilder();
                    for (int i = 0; i < 8; i++) {
                        plain.append(i == 0 ? "" : ":").append(Integer.toHexString(g[i]));
                    }
                    return plain.toString().toUpperCase(java.util.Locale.ROOT);
                }
                case 2:
                    return compressAnyZeroRun(g, r);
                case 3:
                    return rfc5952(g).toUpperCase(java.util.Locale.ROOT);
                default:
                    return rfc5952(g);
            }
        }

        /** With a port, and brackets for IPv6, as proxies may write it. */
        String withPort(Random r) {
            int port = 1 + r.nextInt(65535);
            String spelled = spelling(r);
            return spelled.indexOf(':') < 0 ? spelled + ":" + port : "[" + spelled + "]:" + port;
        }
    }

    /** RFC 5952: lower case, no leading zeros, the first longest run of two or more zero groups as "::". */
    private static String rfc5952(int[] g) {
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(g[i]));
        }
        return out.toString();
    }

    /** A valid but not canonical spelling: "::" over some run of zero groups, perhaps a single one. */
    private static String compressAnyZeroRun(int[] g, Random r) {
        List<int[]> runs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            if (g[i] == 0) {
                int j = i;
                while (j < 8 && g[j] == 0) {
                    j++;
                }
                int from = i + r.nextInt(j - i);
                runs.add(new int[] {from, from + 1 + r.nextInt(j - from)});
                i = j;
            }
        }
        if (runs.isEmpty()) {
            return rfc5952(g);
        }
        int[] run = runs.get(r.nextInt(runs.size()));
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < run[0]; i++) {
            out.append(i == 0 ? "" : ":").append(Integer.toHexString(g[i]));
        }
        out.append("::");
        for (int i = run[1]; i < 8; i++) {
            out.append(i == run[1] ? "" : ":").append(Integer.toHexString(g[i]));
        }
        return out.toString();
    }

    private static Address publicV4(Random r) {
        int first;
        do {
            first = 1 + r.nextInt(223);
        } while (first == 10 || first == 127);
        return new Address(new byte[] {(byte) first, (byte) r.nextInt(256), (byte) r.nextInt(256), (byte) r.nextInt(256)});
    }

    private static Address publicV6(Random r) {
        byte[] b = new byte[16];
        r.nextBytes(b);
        b[0] = (byte) (0x20 + r.nextInt(0x20)); // global unicast, never fd00::/8
        for (int i = 1; i < 8; i++) {
            if (r.nextInt(3) == 0) {
                b[2 * i] = 0;
                b[2 * i + 1] = 0;
            }
        }
        return new Address(b);
    }

    private static Address trustedV4(Random r) {
        return r.nextInt(8) == 0 ? new Address(new byte[] {127, 0, 0, 1})
                : new Address(new byte[] {10, (byte) r.nextInt(256), (byte) r.nextInt(256), (byte) r.nextInt(256)});
    }

    private static Address trustedV6(Random r) {
        Address a = publicV6(r);
        a.bytes[0] = (byte) 0xfd;
        return a;
    }

    /** Characters for junk that is certainly not an address: a few letters outside hex among them. */
    private static final String GARBAGE = "ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ0123456789abcdef.!#$%&'*+^_`|~-/?@{}()<>\\\u0001\u0007\u001f\u007f\u00e9\u00ff";
    private static final String GARBAGE_EDGE = "ghijkmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ!#$%&'*+^_`|~";

    /** @return a token that no parser could take for an address: starts and ends visible, no separators */
    private static String garbageToken(Random r, int length) {
        if (length < 2) {
            return Fuzz.string(r, GARBAGE_EDGE, 1);
        }
        return Fuzz.string(r, GARBAGE_EDGE, 1) + Fuzz.string(r, GARBAGE, length - 2) + Fuzz.string(r, GARBAGE_EDGE, 1);
    }

    /** Left of the client: what the client wrote itself. Anything at all, never to be used. */
    private static String junk(Random r) {
        switch (r.nextInt(12)) {
            case 0:
                return publicV4(r).spelling(r);
            case 1:
                return publicV6(r).withPort(r);
            case 2:
                return trustedV4(r).spelling(r); // a client claiming to be a trusted proxy
            case 3:
                return "unknown";
            case 4:
                return "_" + Fuzz.string(r, "abcXYZ019._-", 1 + r.nextInt(10));
            case 5:
                return "";
            case 6:
                return "\"" + publicV4(r).spelling(r) + (r.nextBoolean() ? "\"" : "");
            case 7:
                return "[" + publicV6(r).spelling(r) + (r.nextBoolean() ? "]" : "") + ":" + Fuzz.string(r, "0123456789x", 1 + r.nextInt(6));
            case 8:
                return "fe80::1%eth" + r.nextInt(10);
            case 9:
                return Fuzz.latin1(Fuzz.headerBytes(r, 1 + r.nextInt(30))).replace(",", "");
            case 10:
                return "for=" + publicV4(r).spelling(r) + ";by=" + garbageToken(r, 5) + ";proto=" + garbageToken(r, 3);
            default:
                return garbageToken(r, 1 + r.nextInt(80));
        }
    }

    /**
     * From a peer that is not a trusted proxy, whatever the forwarding headers say, the key is the
     * peer: a small burst, exhausted with a different claimed client on every request, stays
     * exhausted. Every request names another client, in either header or both, some with thousands of hops.
     */
    @Test
    void forwardingHeadersFromAnUntrustedPeerNeverGiveAFreshBucket() throws Exception {
        Random r = Fuzz.random("untrusted-forwarding");
        start(TestApp.builder().beans(KeysResource.class, TenantKeys.class).properties(SampleRules.keys())
                .property("tollgate.rules.by-ip.burst", Integer.toString(IP_BURST))
                .property("tollgate.trusted-proxies", "10.0.0.0/8, fd00::/8")); // the peer, 127.0.0.1, is not among them
        int allowed = 0;
        int denied = 0;
        int hops = 0;
        for (int i = 0; i < UNTRUSTED_CASES; i++) {
            List<Header> headers = new ArrayList<>();
            int kind = r.nextInt(3);
            if (kind != 1) {
                List<String> chain = new ArrayList<>();
                int length = r.nextInt(20) == 0 ? 100 + r.nextInt(2000) : 1 + r.nextInt(6);
                for (int h = 0; h < length; h++) {
                    chain.add(r.nextBoolean() ? publicV4(r).spelling(r) : junk(r));
                }
                hops += length;
                headers.add(Header.of("X-Forwarded-For", String.join(", ", chain)));
            }
            if (kind != 0) {
                List<String> chain = new ArrayList<>();
                int length = 1 + r.nextInt(6);
                for (int h = 0; h < length; h++) {
                    chain.add("for=" + (r.nextBoolean() ? publicV4(r).spelling(r) : "\"[" + publicV6(r).spelling(r) + "]\""));
                }
                hops += length;
                headers.add(Header.of("Forwarded", String.join(", ", chain)));
            }
            RawHttp.Response response = send("GET", "/keys/ip", headers, "untrusted case " + i);
            if (i < IP_BURST) {
                assertThat(response.status()).as("case " + i + Fuzz.replay()).isEqualTo(200);
                assertThat(response.remaining()).isEqualTo(IP_BURST - 1 - i);
                allowed++;
            } else {
                assertThat(response.status()).as("case " + i + ": a spoofed client must not get a fresh bucket" + Fuzz.replay())
                        .isEqualTo(429);
                denied++;
            }
        }
        assertThat(send("GET", "/keys/ip", List.of(), "no header").status()).isEqualTo(429);
        System.out.printf("untrusted forwarding: %d requests, each claiming other clients (%d hops in all): %d allowed "
                + "(the burst), %d denied%n", UNTRUSTED_CASES, hops, allowed, denied);
    }

    /** One hop as written in either header, and the key it stands for if the walk stops there. */
    private static final class Hop {
        final String xff;
        final String forwarded;
        final String key;
        final boolean address;
        /** For an address, its canonical text (what a probe sends); else as written. */
        final String canonical;

        Hop(String xff, String forwarded, String key, boolean address) {
            this(xff, forwarded, key, address, key);
        }

        Hop(String xff, String forwarded, String key, boolean address, String canonical) {
            this.xff = xff;
            this.forwarded = forwarded;
            this.key = key;
            this.address = address;
            this.canonical = canonical;
        }

        /**
         * @return a clean one-hop header naming the same client, to probe which bucket a chain used:
         *         an address in its canonical spelling, anything else as written
         */
        String probe(boolean forwardedHeader) {
            if (!address) {
                return forwardedHeader ? "for=" + forwarded : xff;
            }
            if (!forwardedHeader) {
                return canonical;
            }
            return canonical.indexOf(':') >= 0 ? "for=\"[" + canonical + "]\"" : "for=" + canonical;
        }
    }

    private static Hop addressHop(Address a, Random r) {
        if (r.nextInt(4) == 0) {
            String withPort = a.withPort(r);
            return new Hop(withPort, "\"" + withPort + "\"", a.key(), true, a.canonical());
        }
        String spelled = a.spelling(r);
        boolean v6Text = spelled.indexOf(':') >= 0;
        String forwarded = v6Text ? (r.nextBoolean() ? "\"[" + spelled + "]\"" : spelled) : (r.nextBoolean() ? "\"" + spelled + "\"" : spelled);
        return new Hop(spelled, forwarded, a.key(), true, a.canonical());
    }

    /** The hop a trusted proxy wrote for its client: usually an address, sometimes what a broken proxy writes. */
    private static Hop clientHop(Random r, List<Address> known) {
        switch (r.nextInt(10)) {
            case 0:
                return new Hop("unknown", "unknown", "unknown", false);
            case 1: {
                String obfuscated = "_" + Fuzz.string(r, "abcdefXYZ0123456789._-", 1 + r.nextInt(12));
                return new Hop(obfuscated, obfuscated, obfuscated, false);
            }
            case 2: {
                String token = garbageToken(r, 1 + (r.nextBoolean() ? r.nextInt(20) : r.nextInt(200)));
                String key = token.length() > 64 ? token.substring(0, 64) : token;
                return new Hop(token, token, key, false);
            }
            default: {
                Address a = !known.isEmpty() && r.nextInt(3) == 0 ? known.get(r.nextInt(known.size()))
                        : r.nextBoolean() ? publicV4(r) : publicV6(r);
                known.add(a);
                return addressHop(a, r);
            }
        }
    }

    /**
     * From a trusted proxy, the README's rule picks the client: walk the chain of the header the
     * proxies write from the right, past every trusted proxy (at most 32 hops), to the first hop a
     * trusted proxy saw, compared in canonical form; a hop that is not an address ends the walk and
     * is the key (cut to 64 characters). The chains are generated: junk the client wrote on the left
     * (spoofed addresses, quotes, brackets, control characters, thousands of hops), the client's hop,
     * then trusted proxies (sometimes more than 32), split over several header lines, with a spoofed
     * header of the other kind alongside. Each rule's bucket holds one token: a new client's first
     * request passes and a clean probe naming the expected client is then denied (so that request
     * charged that client and no other); a known client, however spelled, is denied.
     */
    @ParameterizedTest(name = "tollgate.trusted-proxies.header={0}")
    @ValueSource(strings = {"x-forwarded-for", "forwarded"})
    void forwardingChainsFromATrustedProxyNameTheClientTheReadmeSays(String header) throws Exception {
        Random r = Fuzz.random("trusted-forwarding-" + header);
        boolean forwardedHeader = header.equals("forwarded");
        String headerName = forwardedHeader ? "Forwarded" : "X-Forwarded-For";
        String otherName = forwardedHeader ? "X-Forwarded-For" : "Forwarded";
        start(TestApp.builder().beans(KeysResource.class, TenantKeys.class).properties(SampleRules.keys())
                .property("tollgate.trusted-proxies", "127.0.0.1, 10.0.0.0/8, fd00::/8")
                .property("tollgate.trusted-proxies.header", header));
        Buckets buckets = new Buckets(1);
        List<Address> known = new ArrayList<>();
        int fresh = 0;
        int again = 0;
        int beyond32 = 0;
        int nonAddresses = 0;
        int probes = 0;
        for (int i = 0; i < TRUSTED_CASES; i++) {
            List<String> junk = new ArrayList<>();
            int junkCount = r.nextInt(15) == 0 ? 200 + r.nextInt(2000) : r.nextInt(5);
            for (int j = 0; j < junkCount; j++) {
                String item = junk(r);
                junk.add(forwardedHeader ? (item.startsWith("for=") ? item : "for=" + item) : item);
            }
            Hop client = clientHop(r, known);
            int proxies = r.nextInt(12) == 0 ? 30 + r.nextInt(10) : r.nextInt(5);
            List<Hop> trusted = new ArrayList<>();
            for (int p = 0; p < proxies; p++) {
                trusted.add(addressHop(r.nextBoolean() ? trustedV4(r) : trustedV6(r), r));
            }
            Hop stop = proxies >= 32 ? trusted.get(proxies - 32) : client;
            String expected = stop.key;
            beyond32 += proxies >= 32 ? 1 : 0;
            nonAddresses += stop.address ? 0 : 1;

            List<String> elements = new ArrayList<>(junk);
            elements.add(forwardedHeader ? forwardedElement(client.forwarded, r) : pad(client.xff, r));
            for (Hop hop : trusted) {
                if (forwardedHeader && r.nextInt(5) == 0) {
                    elements.add("proto=https;host=" + garbageToken(r, 6)); // names no client: not a hop
                }
                elements.add(forwardedHeader ? forwardedElement(hop.forwarded, r) : pad(hop.xff, r));
            }
            List<Header> headers = new ArrayList<>();
            for (String line : splitIntoLines(elements, r)) {
                headers.add(Header.of(headerName, line));
            }
            if (r.nextInt(3) == 0) {
                String spoof = forwardedHeader ? publicV4(r).spelling(r) : "for=" + publicV4(r).spelling(r);
                headers.add(r.nextInt(headers.size() + 1), Header.of(otherName, spoof));
            }
            String what = "case " + i + ": expected client '" + Fuzz.show(expected) + "' from " + headerName + ": "
                    + Fuzz.show(String.join(", ", elements));
            boolean mustPass = buckets.charge(expected, 1);
            RawHttp.Response response = send("GET", "/keys/ip", headers, what);
            assertThat(response.status()).as(what + Fuzz.replay()).isEqualTo(mustPass ? 200 : 429);
            if (mustPass) {
                fresh++;
                probes++;
                RawHttp.Response probe = send("GET", "/keys/ip", List.of(Header.of(headerName, stop.probe(forwardedHeader))),
                        "probe of " + what);
                assertThat(probe.status()).as("the chain charged its client's bucket; " + what + Fuzz.replay()).isEqualTo(429);
            } else {
                again++;
            }
        }
        System.out.printf("trusted forwarding (%s): %d chains generated: %d new clients (each confirmed by a probe), "
                + "%d known clients in other spellings or behind other proxies, %d with more than 32 trusted hops, "
                + "%d naming a client that is not an address; %d buckets, %d requests%n",
                header, TRUSTED_CASES, fresh, again, beyond32, nonAddresses, buckets.count(), TRUSTED_CASES + probes);
    }

    private static String pad(String hop, Random r) {
        return r.nextInt(4) == 0 ? " \t".substring(r.nextInt(2)) + hop + " " : hop;
    }

    /** An RFC 7239 element whose {@code for} is {@code value}, with other parameters around it, names in any case. */
    private static String forwardedElement(String value, Random r) {
        String forPair = Fuzz.pick(r, new String[] {"for", "For", "FOR"}) + (r.nextInt(4) == 0 ? " = " : "=") + value;
        List<String> pairs = new ArrayList<>(List.of(forPair));
        if (r.nextBoolean()) {
            pairs.add(r.nextInt(pairs.size() + 1), "proto=" + Fuzz.pick(r, new String[] {"http", "https"}));
        }
        if (r.nextInt(3) == 0) {
            pairs.add(r.nextInt(pairs.size() + 1), "by=" + Fuzz.pick(r, new String[] {"10.0.0.1", "_proxy", "unknown"}));
        }
        return String.join(";", pairs);
    }

    private static List<String> splitIntoLines(List<String> elements, Random r) {
        List<String> lines = new ArrayList<>();
        int lineCount = r.nextInt(4) == 0 ? 2 + r.nextInt(4) : 1;
        int per = Math.max(1, (elements.size() + lineCount - 1) / lineCount);
        for (int from = 0; from < elements.size(); from += per) {
            lines.add(String.join(r.nextBoolean() ? ", " : ",", elements.subList(from, Math.min(elements.size(), from + per))));
        }
        return lines;
    }

    // =============================================================================== 3. tokens

    private static final int JWT_CASES = 500;
    private static final int CLAIM_BURST = 3;

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String jsonString(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static Map<String, Object> claims(String subject, Object tenant, long expiresAt, String issuer) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", issuer);
        claims.put("sub", subject);
        claims.put("upn", subject);
        claims.put("iat", expiresAt - 3600);
        claims.put("exp", expiresAt);
        if (tenant != null) {
            claims.put("tenant", tenant);
        }
        return claims;
    }

    /** @return a token that must not verify, claiming {@code tenant} */
    private static String forged(Random r, String tenant, KeyPair otherKeys) {
        long now = Instant.now().getEpochSecond();
        Map<String, Object> good = claims("forger", tenant, now + 3600, Tokens.ISSUER);
        String payload = "{\"iss\":" + jsonString(Tokens.ISSUER) + ",\"sub\":\"forger\",\"upn\":\"forger\",\"exp\":" + (now + 3600)
                + ",\"tenant\":" + jsonString(tenant) + "}";
        switch (r.nextInt(8)) {
            case 0: // alg none, no signature
                return b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + b64(payload) + ".";
            case 1: // RS256 claimed, signature left off
                return b64("{\"alg\":\"RS256\",\"typ\":\"JWT\"}") + "." + b64(payload) + ".";
            case 2: // signed by someone else's key
                return io.smallrye.jwt.build.Jwt.claims(good).jws().sign(otherKeys.getPrivate());
            case 3: // signed with a shared secret the server never agreed to
                return io.smallrye.jwt.build.Jwt.claims(good).jws().signWithSecret(Fuzz.string(r, "abcdefghijklmnop", 48));
            case 4: // properly signed, but expired
                return Tokens.signed(claims("late", tenant, now - 600 - r.nextInt(100_000), Tokens.ISSUER));
            case 5: // properly signed, by the right key, for another issuer
                return Tokens.signed(claims("elsewhere", tenant, now + 3600, "https://evil.example"));
            case 6: { // a genuine token whose payload was swapped for one with another tenant
                String genuine = Tokens.token("victim", Map.of("tenant", "genuine-" + r.nextInt(1000)));
                String[] parts = genuine.split("\\.");
                return parts[0] + "." + b64(payload) + "." + parts[2];
            }
            default: { // a genuine token with a mangled signature
                String genuine = Tokens.token("mangled", Map.of("tenant", tenant));
                int at = genuine.lastIndexOf('.') + 1 + r.nextInt(20);
                char c = genuine.charAt(at);
                return genuine.substring(0, at) + (c == 'A' ? 'B' : 'A') + genuine.substring(at + 1);
            }
        }
    }

    /** @return a bearer credential that is no token at all */
    private static String garbageToken(Random r) {
        String b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        switch (r.nextInt(6)) {
            case 0: { // base64url segments, any number of them
                List<String> segments = new ArrayList<>();
                int count = r.nextInt(7);
                for (int i = 0; i < count; i++) {
                    segments.add(Fuzz.string(r, b64, r.nextInt(120)));
                }
                return String.join(".", segments) + "x";
            }
            case 1: // JSON that is not a JOSE header or claims
                return b64(Fuzz.pick(r, new String[] {"null", "[]", "1", "\"x\"", "{", "{\"alg\":\"RS256\"", "{}"})) + "."
                        + b64(Fuzz.pick(r, new String[] {"null", "[]", "{}", "{\"exp\":\"soon\"}", "{\"tenant\":{\"$ne\":1}}"})) + "."
                        + Fuzz.string(r, b64, r.nextInt(50)) + "x";
            case 2: // huge
                return Fuzz.string(r, b64 + ".", 4_000 + r.nextInt(40_000)) + "x";
            case 3: // raw bytes
                return Fuzz.latin1(Fuzz.headerBytes(r, 1 + r.nextInt(200))) + "x";
            case 4: // percent-encoded or standard base64 instead of base64url
                return Base64.getEncoder().encodeToString(Fuzz.headerBytes(r, 30)) + ".%2E%2E." + Base64.getEncoder()
                        .encodeToString(Fuzz.headerBytes(r, 30));
            default: // unicode
                return Fuzz.unicode(r, 1 + r.nextInt(40)).replace("\r", "").replace("\n", "") + "x";
        }
    }

    /** A claim value of a verified token, and the key text the README implies for it (arrays comma-joined). */
    private static Object[] tenantValue(Random r, List<Object[]> known) {
        if (!known.isEmpty() && r.nextInt(3) == 0) {
            return known.get(r.nextInt(known.size()));
        }
        Object[] value;
        switch (r.nextInt(6)) {
            case 0: {
                long n = r.nextInt(1_000_000);
                value = new Object[] {n, Long.toString(n)};
                break;
            }
            case 1: {
                List<String> items = List.of("t" + r.nextInt(100), "t" + r.nextInt(100));
                value = new Object[] {items, String.join(",", items)};
                break;
            }
            case 2: {
                String text = Fuzz.unicode(r, 500 + r.nextInt(3000));
                value = new Object[] {text, text};
                break;
            }
            default: {
                String text = Fuzz.unicode(r, 1 + r.nextInt(30));
                value = new Object[] {text, text};
                break;
            }
        }
        known.add(value);
        return value;
    }

    /**
     * Keys from a JWT claim (README: claims come from the verified token only; a request without one
     * has none, and a part the request lacks is empty, so such requests share one bucket). The
     * server's authentication (here SmallRye JWT behind the test's stand-in) answers a bearer
     * credential that does not verify with 401: forged tokens (alg none, unsigned, someone else's
     * key, a shared secret, expired, another issuer, swapped payload, mangled signature) and garbage
     * (any number of segments, JSON junk, raw bytes, unicode, 40 000 characters). None of them reaches
     * the limiter, so none charges the tenant it names nor gets a bucket of its own. Requests without a
     * verified token (no header, other schemes, tokens without the claim or with it empty) share the
     * one empty-key bucket: exactly its burst of them pass. Verified tokens get the bucket of their
     * claim, whatever its type or characters.
     */
    @Test
    void malformedTokensAreRefusedAndRequestsWithoutAClaimShareOneBucket() throws Exception {
        Random r = Fuzz.random("jwt");
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair otherKeys = generator.generateKeyPair();
        start(TestApp.builder().beans(KeysResource.class, TenantKeys.class).properties(SampleRules.keys())
                .property("tollgate.rules.by-claim.burst", Integer.toString(CLAIM_BURST)));
        Buckets buckets = new Buckets(CLAIM_BURST);
        List<Object[]> known = new ArrayList<>();
        List<String> forgedTenants = new ArrayList<>();
        int forged = 0;
        int garbage = 0;
        int claimless = 0;
        int claimlessAllowed = 0;
        int verified = 0;
        int verifiedAllowed = 0;
        for (int i = 0; i < JWT_CASES; i++) {
            int kind = r.nextInt(10);
            List<Header> headers = new ArrayList<>();
            String what;
            String key = null; // null: refused by authentication
            if (kind < 2) {
                String tenant = r.nextInt(3) == 0 && !forgedTenants.isEmpty() ? forgedTenants.get(r.nextInt(forgedTenants.size()))
                        : "forged-" + Fuzz.string(r, "abcdefghij", 8);
                forgedTenants.add(tenant);
                headers.add(Header.of("Authorization", "Bearer " + forged(r, tenant, otherKeys)));
                what = "forged token for tenant " + tenant;
                forged++;
            } else if (kind < 4) {
                String token = garbageToken(r);
                headers.add(Header.of("Authorization", "Bearer " + token));
                what = "garbage bearer '" + Fuzz.show(token) + "'";
                garbage++;
            } else if (kind < 6) {
                key = "";
                switch (r.nextInt(5)) {
                    case 0:
                        what = "no Authorization header";
                        break;
                    case 1: {
                        String value = Fuzz.pick(r, new String[] {"Basic ", "Digest ", "Token ", "Negotiate ", "B"})
                                + Fuzz.string(r, "abcdefABCDEF0123456789+/=", r.nextInt(60));
                        headers.add(Header.of("Authorization", value));
                        what = "Authorization '" + value + "'";
                        break;
                    }
                    case 2:
                        headers.add(Header.of("Authorization", "Bearer"));
                        what = "Bearer without a token";
                        break;
                    case 3:
                        headers.add(Header.of("Authorization", "Bearer " + Tokens.token("nobody-" + i, Map.of())));
                        what = "a verified token without the claim";
                        break;
                    default:
                        headers.add(Header.of("Authorization", "Bearer " + Tokens.token("empty-" + i, Map.of("tenant", ""))));
                        what = "a verified token with an empty claim";
                        break;
                }
                claimless++;
            } else {
                Object[] tenant = r.nextInt(4) == 0 && !forgedTenants.isEmpty()
                        ? new Object[] {forgedTenants.get(r.nextInt(forgedTenants.size())), null} : tenantValue(r, known);
                if (tenant[1] == null) {
                    tenant[1] = tenant[0];
                }
                key = (String) tenant[1];
                headers.add(Header.of("Authorization", "Bearer " + Tokens.token("user-" + i, Map.of("tenant", tenant[0]))));
                what = "a verified token for tenant '" + Fuzz.show(key) + "'";
                verified++;
            }
            RawHttp.Response response = send("GET", "/keys/claim", headers, "case " + i + ": " + what);
            if (key == null) {
                assertThat(response.status()).as("case " + i + ": " + what + " is refused by authentication" + Fuzz.replay())
                        .isEqualTo(401);
                continue;
            }
            boolean mustPass = buckets.charge(key, 1);
            assertThat(response.status()).as("case " + i + ": " + what + Fuzz.replay()).isEqualTo(mustPass ? 200 : 429);
            if (mustPass && key.isEmpty()) {
                claimlessAllowed++;
            } else if (mustPass) {
                verifiedAllowed++;
            }
        }
        assertThat(claimlessAllowed).as("requests without a claim share one bucket" + Fuzz.replay()).isEqualTo(Math.min(CLAIM_BURST, claimless));
        System.out.printf("tokens: %d cases generated: %d forged and %d garbage tokens, all 401; %d requests without a claim, "
                + "%d allowed (one shared bucket of %d); %d verified tokens over %d claim buckets, %d allowed%n",
                JWT_CASES, forged, garbage, claimless, claimlessAllowed, CLAIM_BURST, verified, buckets.count() - (claimless > 0 ? 1 : 0),
                verifiedAllowed);
    }

    // =============================================================================== 4. keys

    private static final int HEADER_KEYS = 300;
    private static final int QUERY_KEYS = 200;
    private static final int PATH_KEYS = 100;

    /** The value as the application sees it: ISO-8859-1 text without the spaces and tabs around it. */
    private static String headerKey(byte[] value) {
        return Fuzz.latin1(value).replaceAll("^[ \t]+|[ \t]+$", "");
    }

    private static String sha256(String key) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    }

    private static byte[] anyLong(Random r, List<byte[]> sent) {
        List<byte[]> longOnes = new ArrayList<>();
        for (byte[] value : sent) {
            if (value.length > 64) {
                longOnes.add(value);
            }
        }
        return longOnes.isEmpty() ? null : longOnes.get(r.nextInt(longOnes.size()));
    }

    private static byte[] hostileHeaderKey(Random r, List<byte[]> sent) throws Exception {
        switch (r.nextInt(9)) {
            case 0:
                return Fuzz.headerBytes(r, 1 + r.nextInt(30));
            case 1: // around the length where keys start being hashed
                return Fuzz.headerBytes(r, 60 + r.nextInt(10));
            case 2:
                return Fuzz.headerBytes(r, 1_000 + r.nextInt(9_001));
            case 3: { // a long key sent before, one byte changed anywhere
                byte[] base = anyLong(r, sent);
                if (base == null) {
                    return Fuzz.headerBytes(r, 10_000);
                }
                byte[] twin = base.clone();
                int at = r.nextBoolean() ? twin.length - 1 - r.nextInt(3) : r.nextInt(twin.length);
                twin[at] = (byte) (twin[at] == 'a' ? 'b' : 'a');
                return twin;
            }
            case 4: { // a forged hashed key: '#' and the digest of a long key sent before
                byte[] base = anyLong(r, sent);
                String target = base == null ? "x".repeat(100) : headerKey(base);
                return ("#" + sha256(target)).getBytes(StandardCharsets.ISO_8859_1);
            }
            case 5:
                return ("#" + Fuzz.string(r, "abcXYZ09-_", r.nextInt(70))).getBytes(StandardCharsets.ISO_8859_1);
            case 6: // unicode, as UTF-8
                return Fuzz.unicode(r, 1 + r.nextInt(r.nextBoolean() ? 20 : 3_000)).replace("\r", "").replace("\n", "")
                        .getBytes(StandardCharsets.UTF_8);
            case 7: // a key sent before, padded with the whitespace HTTP strips: the same key
                return sent.isEmpty() ? new byte[] {'k'} : (" \t" + Fuzz.latin1(sent.get(r.nextInt(sent.size()))) + " ")
                        .getBytes(StandardCharsets.ISO_8859_1);
            default:
                return sent.isEmpty() ? new byte[] {'k'} : sent.get(r.nextInt(sent.size()));
        }
    }

    private static String hostileText(Random r, List<String> sent) {
        switch (r.nextInt(6)) {
            case 0:
                return Fuzz.unicode(r, 10_000);
            case 1: {
                List<String> longOnes = sent.stream().filter(s -> s.length() > 64).collect(java.util.stream.Collectors.toList());
                String base = longOnes.isEmpty() ? "q".repeat(100) : longOnes.get(r.nextInt(longOnes.size()));
                int at = r.nextInt(base.length());
                return base.substring(0, at) + (base.charAt(at) == 'z' ? 'y' : 'z') + base.substring(at + 1);
            }
            case 2: // one code point, composed and decomposed: different strings, different buckets
                return r.nextBoolean() ? "caf\u00e9" + r.nextInt(20) : "cafe\u0301" + r.nextInt(20);
            case 3:
                return sent.isEmpty() ? "q" : sent.get(r.nextInt(sent.size()));
            default:
                return Fuzz.unicode(r, 1 + r.nextInt(r.nextBoolean() ? 20 : 300));
        }
    }

    /**
     * Keys from a header, a query parameter and the path, with control characters, raw bytes, every
     * kind of unicode and 10 000-character values. Each bucket holds one token: the first request of
     * a key passes, the next is denied. The Hazelcast map then holds exactly one entry per distinct
     * key (so no two long keys shared a bucket, not even a raw key forged as the hash of another),
     * and every stored key is bounded: rule, ':' and at most 64 characters.
     */
    @Test
    void hostileKeysGetOneBoundedBucketEach() throws Exception {
        Random r = Fuzz.random("keys");
        start(TestApp.builder().beans(KeysResource.class, TenantKeys.class).properties(SampleRules.keys()));
        Buckets buckets = new Buckets(1);
        Map<String, Set<String>> distinct = new HashMap<>();
        int requests = 0;
        int longest = 0;

        List<byte[]> sentHeaders = new ArrayList<>();
        for (int i = 0; i < HEADER_KEYS; i++) {
            byte[] value = hostileHeaderKey(r, sentHeaders);
            sentHeaders.add(value);
            String key = headerKey(value);
            longest = Math.max(longest, value.length);
            requests += checkKey(buckets, distinct, "by-header", key, "/keys/header", List.of(Header.bytes("X-Api-Key", value)),
                    "header key '" + Fuzz.show(key) + "'");
        }
        List<String> sentQueries = new ArrayList<>();
        for (int i = 0; i < QUERY_KEYS; i++) {
            String key = hostileText(r, sentQueries);
            sentQueries.add(key);
            longest = Math.max(longest, key.length());
            requests += checkKey(buckets, distinct, "by-query", key, "/keys/query?api_key=" + Fuzz.percentEncode(key), List.of(),
                    "query key '" + Fuzz.show(key) + "'");
        }
        List<String> sentPaths = new ArrayList<>();
        for (int i = 0; i < PATH_KEYS; i++) {
            String segment = hostileText(r, sentPaths).replace("/", "").replace(";", "");
            if (segment.isEmpty() || segment.chars().allMatch(c -> c == '.')) {
                segment = "s" + segment;
            }
            sentPaths.add(segment);
            requests += checkKey(buckets, distinct, "by-path", "/keys/path/" + segment, "/keys/path/" + Fuzz.percentEncode(segment),
                    List.of(), "path segment '" + Fuzz.show(segment) + "'");
        }
        // encodings that do not decode: whatever the application sees, never a 5xx, and the same value the same bucket
        String[] broken = {"%zz", "%", "%E0%A4", "%FF", "%C0%80", "%ED%A0%80", "%F4%90%80%80", "%%", "%0", "%u0041", "%2"};
        for (String raw : broken) {
            String target = "/keys/composite?region=" + raw;
            int first = send("GET", target, List.of(Header.of("X-Api-Key", "broken")), "query " + raw).status();
            assertThat(first).as(raw).isIn(200, 400, 404, 429);
            int second = send("GET", target, List.of(Header.of("X-Api-Key", "broken")), "query " + raw).status();
            assertThat(second).as(raw + ": the same value twice is the same bucket" + Fuzz.replay()).isIn(400, 404, 429);
            requests += 2;
        }

        Map<String, Integer> stored = new HashMap<>();
        int maxStored = 0;
        for (Object entry : cluster.member(0).getMap(mapName).keySet()) {
            String storeKey = (String) entry;
            String rule = storeKey.substring(0, storeKey.indexOf(':'));
            String key = storeKey.substring(rule.length() + 1);
            assertThat(key.length()).as("stored key of rule " + rule + ": " + Fuzz.show(storeKey)).isLessThanOrEqualTo(BucketKeys.MAX_RAW_LENGTH);
            maxStored = Math.max(maxStored, storeKey.length());
            stored.merge(rule, 1, Integer::sum);
        }
        for (String rule : List.of("by-header", "by-query", "by-path")) {
            assertThat(stored.get(rule)).as("buckets of " + rule + ": one per distinct key" + Fuzz.replay())
                    .isEqualTo(distinct.get(rule).size());
        }
        System.out.printf("hostile keys: %d header, %d query and %d path keys generated (longest %d characters), %d broken "
                + "encodings; %d requests; distinct keys %d/%d/%d, buckets in the map %s; longest stored key %d characters%n",
                HEADER_KEYS, QUERY_KEYS, PATH_KEYS, longest, broken.length, requests, distinct.get("by-header").size(),
                distinct.get("by-query").size(), distinct.get("by-path").size(), stored, maxStored);
    }

    /** Sends the key twice: the first request passes iff the key is new, the second never does. */
    private int checkKey(Buckets buckets, Map<String, Set<String>> distinct, String rule, String key, String target,
            List<Header> headers, String what) throws Exception {
        distinct.computeIfAbsent(rule, k -> new HashSet<>()).add(key);
        boolean fresh = buckets.charge(rule + ":" + key, 1);
        assertThat(send("GET", target, headers, what).status()).as(what + Fuzz.replay()).isEqualTo(fresh ? 200 : 429);
        assertThat(send("GET", target, headers, what).status()).as(what + ", again" + Fuzz.replay()).isEqualTo(429);
        return 2;
    }
}
