package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.get;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A rule keyed by a JWT claim ({@code accounts}: {@code key=jwt:sub}, burst 2) on Quarkus, whose SmallRye JWT
 * ({@code quarkus-smallrye-jwt} in the sample application) verifies the caller's bearer token: each subject has its
 * own bucket. The token is signed (RS256) with a key this test makes; the deployment's configuration gives its
 * public key and issuer ({@code mp.jwt.verify.*}). Quarkus only: on the Jakarta EE servers MicroProfile JWT needs an
 * application of its own ({@code @LoginConfig}, a server feature), and the library's tests read SmallRye JWT's tokens.
 */
@ExtendWith(ArquillianExtension.class)
@EnabledIfSystemProperty(named = "it.server", matches = "quarkus")
class JwtClaimsIT {

    private static final String ISSUER = "https://tollgate.example/it";
    private static KeyPair keys;

    @Deployment(testable = false)
    static WebArchive deployment() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        keys = generator.generateKeyPair();
        return Deployments.war("jwt", Deployments.contractConfig(Map.of(
                "mp.jwt.verify.publickey", Base64.getEncoder().encodeToString(keys.getPublic().getEncoded()),
                "mp.jwt.verify.issuer", ISSUER)));
    }

    @ArquillianResource
    URL base;

    /** @return a token of {@code subject}, valid for an hour */
    private static String token(String subject) throws GeneralSecurityException {
        long now = Instant.now().getEpochSecond();
        String header = base64("{\"alg\":\"RS256\",\"typ\":\"JWT\"}");
        String claims = base64("{\"iss\":\"" + ISSUER + "\",\"sub\":\"" + subject + "\",\"upn\":\"" + subject
                + "\",\"iat\":" + now + ",\"exp\":" + (now + 3600) + ",\"jti\":\"" + UUID.randomUUID() + "\"}");
        Signature rs256 = Signature.getInstance("SHA256withRSA");
        rs256.initSign(keys.getPrivate());
        rs256.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
        return header + "." + claims + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rs256.sign());
    }

    private static String base64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void eachSubjectOfAVerifiedTokenHasItsOwnBucket() throws GeneralSecurityException {
        String alice = "alice-" + UUID.randomUUID();
        String bob = "bob-" + UUID.randomUUID();
        for (int i = 0; i < 2; i++) { // accounts: burst 2, one an hour
            HttpResponse<String> ok = get(base, "api/account", "Authorization", "Bearer " + token(alice));
            assertEquals(200, ok.statusCode(), describe(ok));
            assertEquals("account of " + alice, ok.body(), describe(ok));
        }
        HttpResponse<String> denied = get(base, "api/account", "Authorization", "Bearer " + token(alice));
        assertEquals(429, denied.statusCode(), "a third request of " + alice + ": " + describe(denied));
        HttpResponse<String> other = get(base, "api/account", "Authorization", "Bearer " + token(bob));
        assertEquals(200, other.statusCode(), "another subject has a bucket of its own: " + describe(other));
    }
}
