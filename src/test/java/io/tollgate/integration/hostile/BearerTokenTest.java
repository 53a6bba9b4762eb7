package io.tollgate.integration.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.tollgate.testing.Fuzz;
import io.tollgate.testing.HazelcastTestCluster;
import io.tollgate.testing.RawHttp;
import io.tollgate.testing.RawHttp.Header;
import io.tollgate.testing.SharedCluster;
import io.tollgate.testing.Tokens;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Keys from a JWT claim (README: claims come from the verified token only; a request without one has
 * none, and a part the request lacks is empty, so such requests share one bucket). The server's
 * authentication (here SmallRye JWT behind the test's stand-in) answers a bearer credential that does
 * not verify with 401: forged tokens (alg none, unsigned, someone else's key, a shared secret, expired,
 * another issuer, swapped payload, mangled signature) and garbage (any number of segments, JSON junk,
 * raw bytes, unicode, 40 000 characters). None of them reaches the limiter, so none charges the tenant
 * it names nor gets a bucket of its own. Requests without a verified token (no header, other schemes,
 * tokens without the claim or with it empty) share the one empty-key bucket: exactly its burst of them
 * pass. Verified tokens get the bucket of their claim, whatever its type or characters.
 */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class BearerTokenTest {

    private static final int CLAIM_BURST = 3;

    /** What a request presents. */
    private enum Credential { FORGED, GARBAGE, NO_CLAIM, VERIFIED }

    /** A request's headers, what they are, and the key the request must be charged to ({@code null}: refused with 401). */
    private record Sent(List<Header> headers, String what, String key) {
    }

    private final HostileApp app;
    private final List<Object[]> knownTenants = new ArrayList<>();
    private final List<String> forgedTenants = new ArrayList<>();
    private KeyPair otherKeys;

    BearerTokenTest(HazelcastTestCluster cluster) {
        app = new HostileApp(cluster);
    }

    @AfterEach
    void stop() {
        app.close();
    }

    /** Forged tokens are refused, and verified tokens for the tenants they named still find their buckets full. */
    @Test
    void forgedTokensAreRefusedAndChargeNoTenantTheyName() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        otherKeys = generator.generateKeyPair();
        send("forged", 150, Credential.FORGED, Credential.VERIFIED);
    }

    /** Garbage credentials are refused, and the requests without a claim among them still get exactly one burst. */
    @Test
    void garbageCredentialsAreRefusedAndChargeNoBucket() throws Exception {
        send("garbage", 150, Credential.GARBAGE, Credential.NO_CLAIM);
    }

    @Test
    void requestsWithoutAVerifiedClaimShareOneBucket() throws Exception {
        send("no-claim", 100, Credential.NO_CLAIM);
    }

    @Test
    void verifiedClaimsOfAnyTypeAndCharactersGetABucketEach() throws Exception {
        send("verified", 100, Credential.VERIFIED);
    }

    /** Sends {@code cases} requests, each with one of the {@code credentials}, and checks each answer against the oracle. */
    private void send(String name, int cases, Credential... credentials) throws Exception {
        Random r = Fuzz.random("jwt-" + name);
        app.start(HostileApp.keyedResources()
                .property("tollgate.rules.by-claim.burst", Integer.toString(CLAIM_BURST)));
        ExpectedBuckets buckets = new ExpectedBuckets(CLAIM_BURST);
        Map<Credential, Integer> sent = new EnumMap<>(Credential.class);
        int claimlessAllowed = 0;
        int verifiedAllowed = 0;
        for (int i = 0; i < cases; i++) {
            Credential credential = credentials[r.nextInt(credentials.length)];
            sent.merge(credential, 1, Integer::sum);
            Sent request = switch (credential) {
                case FORGED -> forged(r);
                case GARBAGE -> garbage(r);
                case NO_CLAIM -> withoutClaim(r, i);
                case VERIFIED -> verified(r, i);
            };
            String what = name + " case " + i + ": " + request.what();
            RawHttp.Response response = app.send("GET", "/keys/claim", request.headers(), what);
            if (request.key() == null) {
                assertThat(response.status()).as(what + " is refused by authentication" + Fuzz.replay()).isEqualTo(401);
                continue;
            }
            boolean mustPass = buckets.charge(request.key(), 1);
            assertThat(response.status()).as(what + Fuzz.replay()).isEqualTo(mustPass ? 200 : 429);
            if (mustPass && request.key().isEmpty()) {
                claimlessAllowed++;
            } else if (mustPass) {
                verifiedAllowed++;
            }
        }
        int claimless = sent.getOrDefault(Credential.NO_CLAIM, 0);
        assertThat(claimlessAllowed).as("requests without a claim share one bucket" + Fuzz.replay()).isEqualTo(Math.min(CLAIM_BURST, claimless));
        System.out.printf("tokens, %s: %d cases generated: %d forged and %d garbage tokens, all 401; %d requests without a claim, "
                + "%d allowed (one shared bucket of %d); %d verified tokens over %d claim buckets, %d allowed%n",
                name, cases, sent.getOrDefault(Credential.FORGED, 0), sent.getOrDefault(Credential.GARBAGE, 0), claimless,
                claimlessAllowed, CLAIM_BURST, sent.getOrDefault(Credential.VERIFIED, 0),
                buckets.count() - (claimless > 0 ? 1 : 0), verifiedAllowed);
    }

    private Sent forged(Random r) {
        String tenant = r.nextInt(3) == 0 && !forgedTenants.isEmpty() ? forgedTenants.get(r.nextInt(forgedTenants.size()))
                : "forged-" + Fuzz.string(r, "abcdefghij", 8);
        forgedTenants.add(tenant);
        return new Sent(List.of(Header.of("Authorization", "Bearer " + BearerTokens.forged(r, tenant, otherKeys))),
                "forged token for tenant " + tenant, null);
    }

    private static Sent garbage(Random r) {
        String token = BearerTokens.garbage(r);
        return new Sent(List.of(Header.of("Authorization", "Bearer " + token)), "garbage bearer '" + Fuzz.show(token) + "'", null);
    }

    private static Sent withoutClaim(Random r, int i) {
        switch (r.nextInt(5)) {
            case 0:
                return new Sent(List.of(), "no Authorization header", "");
            case 1: {
                String value = Fuzz.pick(r, new String[] {"Basic ", "Digest ", "Token ", "Negotiate ", "B"})
                        + Fuzz.string(r, "abcdefABCDEF0123456789+/=", r.nextInt(60));
                return new Sent(List.of(Header.of("Authorization", value)), "Authorization '" + value + "'", "");
            }
            case 2:
                return new Sent(List.of(Header.of("Authorization", "Bearer")), "Bearer without a token", "");
            case 3:
                return new Sent(List.of(Header.of("Authorization", "Bearer " + Tokens.token("nobody-" + i, Map.of()))),
                        "a verified token without the claim", "");
            default:
                return new Sent(List.of(Header.of("Authorization", "Bearer " + Tokens.token("empty-" + i, Map.of("tenant", "")))),
                        "a verified token with an empty claim", "");
        }
    }

    /** A verified token, for a tenant a forged token named a quarter of the time there are some. */
    private Sent verified(Random r, int i) {
        Object[] tenant = r.nextInt(4) == 0 && !forgedTenants.isEmpty()
                ? new Object[] {forgedTenants.get(r.nextInt(forgedTenants.size())), null} : BearerTokens.tenantValue(r, knownTenants);
        if (tenant[1] == null) {
            tenant[1] = tenant[0];
        }
        String key = (String) tenant[1];
        return new Sent(List.of(Header.of("Authorization", "Bearer " + Tokens.token("user-" + i, Map.of("tenant", tenant[0])))),
                "a verified token for tenant '" + Fuzz.show(key) + "'", key);
    }
}
