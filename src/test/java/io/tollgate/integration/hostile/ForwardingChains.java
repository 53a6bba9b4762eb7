package io.tollgate.integration.hostile;

import static io.tollgate.integration.hostile.GeneratedAddress.publicV4;
import static io.tollgate.integration.hostile.GeneratedAddress.publicV6;
import static io.tollgate.integration.hostile.GeneratedAddress.trustedV4;

import io.tollgate.testing.Fuzz;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Forwarding headers as clients and proxies, honest or not, write them: hops, junk left of the client, RFC 7239 elements. */
final class ForwardingChains {

    private ForwardingChains() {
    }

    /** Characters for junk that is certainly not an address: a few letters outside hex among them. */
    private static final String GARBAGE = "ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ0123456789abcdef.!#$%&'*+^_`|~-/?@{}()<>\\\u0001\u0007\u001f\u007f\u00e9\u00ff";
    private static final String GARBAGE_EDGE = "ghijkmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ!#$%&'*+^_`|~";

    /** @return a token that no parser could take for an address: starts and ends visible, no separators */
    static String notAnAddress(Random r, int length) {
        if (length < 2) {
            return Fuzz.string(r, GARBAGE_EDGE, 1);
        }
        return Fuzz.string(r, GARBAGE_EDGE, 1) + Fuzz.string(r, GARBAGE, length - 2) + Fuzz.string(r, GARBAGE_EDGE, 1);
    }

    /** Left of the client: what the client wrote itself. Anything at all, never to be used. */
    static String junk(Random r) {
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
                return "for=" + publicV4(r).spelling(r) + ";by=" + notAnAddress(r, 5) + ";proto=" + notAnAddress(r, 3);
            default:
                return notAnAddress(r, 1 + r.nextInt(80));
        }
    }

    /** One hop as written in either header, and the key it stands for if the walk stops there. */
    static final class Hop {
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

    static Hop addressHop(GeneratedAddress a, Random r) {
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
    static Hop clientHop(Random r, List<GeneratedAddress> known) {
        switch (r.nextInt(10)) {
            case 0:
                return new Hop("unknown", "unknown", "unknown", false);
            case 1: {
                String obfuscated = "_" + Fuzz.string(r, "abcdefXYZ0123456789._-", 1 + r.nextInt(12));
                return new Hop(obfuscated, obfuscated, obfuscated, false);
            }
            case 2: {
                String token = notAnAddress(r, 1 + (r.nextBoolean() ? r.nextInt(20) : r.nextInt(200)));
                String key = token.length() > 64 ? token.substring(0, 64) : token;
                return new Hop(token, token, key, false);
            }
            default: {
                GeneratedAddress a = !known.isEmpty() && r.nextInt(3) == 0 ? known.get(r.nextInt(known.size()))
                        : r.nextBoolean() ? publicV4(r) : publicV6(r);
                known.add(a);
                return addressHop(a, r);
            }
        }
    }

    static String pad(String hop, Random r) {
        return r.nextInt(4) == 0 ? " \t".substring(r.nextInt(2)) + hop + " " : hop;
    }

    /** An RFC 7239 element whose {@code for} is {@code value}, with other parameters around it, names in any case. */
    static String forwardedElement(String value, Random r) {
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

    static List<String> splitIntoLines(List<String> elements, Random r) {
        List<String> lines = new ArrayList<>();
        int lineCount = r.nextInt(4) == 0 ? 2 + r.nextInt(4) : 1;
        int per = Math.max(1, (elements.size() + lineCount - 1) / lineCount);
        for (int from = 0; from < elements.size(); from += per) {
            lines.add(String.join(r.nextBoolean() ? ", " : ",", elements.subList(from, Math.min(elements.size(), from + per))));
        }
        return lines;
    }
}
