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
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Bearer tokens, forged, garbage, missing or verified: keys from a JWT claim come from a verified token only. */
@Tag("hazelcast")
@ExtendWith(SharedCluster.class)
class BearerTokenTest {

    private static final int JWT_CASES = 500;
    private static final int CLAIM_BURST = 3;

    private final HostileApp app;

    BearerTokenTest(HazelcastTestCluster cluster) {
        app = new HostileApp(cluster);
    }

    @AfterEach
    void stop() {
        app.close();
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
        app.start(HostileApp.keyedResources()
                .property("tollgate.rules.by-claim.burst", Integer.toString(CLAIM_BURST)));
        ExpectedBuckets buckets = new ExpectedBuckets(CLAIM_BURST);
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
                headers.add(Header.of("Authorization", "Bearer " + BearerTokens.forged(r, tenant, otherKeys)));
                what = "forged token for tenant " + tenant;
                forged++;
            } else if (kind < 4) {
                String token = BearerTokens.garbage(r);
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
                        ? new Object[] {forgedTenants.get(r.nextInt(forgedTenants.size())), null} : BearerTokens.tenantValue(r, known);
                if (tenant[1] == null) {
                    tenant[1] = tenant[0];
                }
                key = (String) tenant[1];
                headers.add(Header.of("Authorization", "Bearer " + Tokens.token("user-" + i, Map.of("tenant", tenant[0]))));
                what = "a verified token for tenant '" + Fuzz.show(key) + "'";
                verified++;
            }
            RawHttp.Response response = app.send("GET", "/keys/claim", headers, "case " + i + ": " + what);
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
}
