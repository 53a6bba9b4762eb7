package io.tollgate.internal.servlet;

import java.lang.reflect.Method;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Teaches the server's HTTP layer the reason phrase of {@code 429}, where it lacks one: Open Liberty's HTTP
 * channel writes {@code 429 Undefined} and Payara's Grizzly {@code 429 CUSTOM}, because their tables of
 * status codes stop before RFC 6585. Each table has a way to add an entry, used once, with the standard
 * phrase; servers that know 429 are left alone, and anything unexpected is only logged at FINE.
 *
 * <p>Open Liberty's entry is made as one that is not an error, as for 401: Liberty closes the connection after every
 * status it counts as an error, and a client that is told to slow down should not have to connect again (with TLS, a
 * handshake per refusal) to be told again.
 */
final class ReasonPhrases {

    private static final Logger LOG = Logger.getLogger(ReasonPhrases.class.getName());
    private static final int TOO_MANY_REQUESTS = 429;
    private static final String PHRASE = "Too Many Requests";

    private ReasonPhrases() {
    }

    /** @param server an object of the server's web container, whose class loader sees its HTTP layer */
    static void teach429(Object server) {
        ClassLoader loader = server.getClass().getClassLoader();
        if (loader == null) {
            return;
        }
        liberty(loader);
        grizzly(loader);
    }

    private static void liberty(ClassLoader loader) {
        try {
            Class<?> codes = Class.forName("com.ibm.wsspi.http.channel.values.StatusCodes", true, loader);
            Object known = codes.getMethod("getByOrdinal", int.class).invoke(null, TOO_MANY_REQUESTS);
            if (known == null || Boolean.TRUE.equals(codes.getMethod("isUndefined").invoke(known))) {
                codes.getConstructor(int.class, String.class, boolean.class).newInstance(TOO_MANY_REQUESTS, PHRASE, false);
                LOG.fine("Taught Open Liberty's HTTP channel the reason phrase of 429");
            }
        } catch (ClassNotFoundException e) {
            // not Open Liberty
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "Could not teach Open Liberty the reason phrase of 429", e);
        }
    }

    private static void grizzly(ClassLoader loader) {
        try {
            Class<?> status = Class.forName("org.glassfish.grizzly.http.util.HttpStatus", true, loader);
            Object known = status.getMethod("getHttpStatus", int.class).invoke(null, TOO_MANY_REQUESTS);
            if (!PHRASE.equals(status.getMethod("getReasonPhrase").invoke(known))) {
                Method register = status.getDeclaredMethod("register", int.class, String.class);
                register.setAccessible(true);
                register.invoke(null, TOO_MANY_REQUESTS, PHRASE);
                LOG.fine("Taught Grizzly the reason phrase of 429");
            }
        } catch (ClassNotFoundException e) {
            // not Grizzly
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "Could not teach Grizzly the reason phrase of 429", e);
        }
    }
}
