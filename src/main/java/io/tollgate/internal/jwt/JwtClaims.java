package io.tollgate.internal.jwt;

import jakarta.json.JsonString;
import java.security.Principal;
import java.util.Collection;
import java.util.stream.Collectors;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Reads claims of a MicroProfile JWT principal, verified by the server. Only loaded when the
 * MicroProfile JWT API is present; without it no request has claims.
 */
public final class JwtClaims {

    /** Whether the MicroProfile JWT API is there at all. */
    public static final boolean AVAILABLE = present("org.eclipse.microprofile.jwt.JsonWebToken");

    private JwtClaims() {
    }

    /** @return the claim as text (arrays comma-joined), or {@code null} */
    public static String claim(Principal principal, String name) {
        if (!AVAILABLE || !(principal instanceof JsonWebToken)) {
            return null;
        }
        Object value = ((JsonWebToken) principal).getClaim(name);
        if (value == null) {
            return null;
        }
        if (value instanceof JsonString) {
            return ((JsonString) value).getString();
        }
        if (value instanceof Collection) {
            return ((Collection<?>) value).stream().map(JwtClaims::text).collect(Collectors.joining(","));
        }
        return text(value);
    }

    private static String text(Object value) {
        return value instanceof JsonString ? ((JsonString) value).getString() : String.valueOf(value);
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, JwtClaims.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
