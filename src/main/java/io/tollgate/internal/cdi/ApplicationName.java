package io.tollgate.internal.cdi;

import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/** The application's name as its server deployed it ({@code java:app/AppName}), which names its map by default. */
final class ApplicationName {

    private static final Logger LOG = Logger.getLogger(ApplicationName.class.getName());
    private static final String JNDI_NAME = "java:app/AppName";

    private ApplicationName() {
    }

    /** @return the name, if the server gives one here (a server does, on the deploying thread; a test container may not) */
    static Optional<String> lookup() {
        try {
            Object name = new InitialContext().lookup(JNDI_NAME);
            return name instanceof String text && !text.isBlank() ? Optional.of(text) : Optional.empty();
        } catch (NamingException | RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "No application name at " + JNDI_NAME, e);
            return Optional.empty();
        }
    }
}
