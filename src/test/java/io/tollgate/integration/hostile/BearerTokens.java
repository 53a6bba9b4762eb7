package io.tollgate.integration.hostile;

import io.tollgate.testing.Fuzz;
import io.tollgate.testing.Tokens;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Bearer credentials that must not verify (forged tokens, garbage) and claim values of tokens that do. */
final class BearerTokens {

    private BearerTokens() {
    }

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
    static String forged(Random r, String tenant, KeyPair otherKeys) {
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
    static String garbage(Random r) {
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
    static Object[] tenantValue(Random r, List<Object[]> known) {
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
}
