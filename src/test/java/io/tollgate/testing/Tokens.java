package io.tollgate.testing;

import io.smallrye.jwt.build.Jwt;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;

/** Signs JWTs for tests with a key pair made once per JVM; the verifying properties go into the app's config. */
public final class Tokens {

    public static final String ISSUER = "https://issuer.tollgate.test";
    private static final KeyPair KEYS = generate();

    private Tokens() {
    }

    /** @return the MicroProfile JWT properties that make the server trust these tokens */
    public static Map<String, String> verification() {
        return Map.of("mp.jwt.verify.publickey", Base64.getEncoder().encodeToString(KEYS.getPublic().getEncoded()),
                "mp.jwt.verify.issuer", ISSUER);
    }

    /** @return a signed token for {@code subject} with {@code claims} */
    public static String token(String subject, Map<String, Object> claims) {
        var builder = Jwt.issuer(ISSUER).subject(subject).upn(subject).expiresIn(3600);
        claims.forEach(builder::claim);
        return builder.jws().sign(KEYS.getPrivate());
    }

    /**
     * @return {@code claims} signed with the trusted key, as given: no issuer, subject or expiry is
     *         added, so a test can make tokens that are expired, from another issuer, and so on
     */
    public static String signed(Map<String, Object> claims) {
        return Jwt.claims(claims).jws().sign(KEYS.getPrivate());
    }

    private static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
