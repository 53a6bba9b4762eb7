package io.tollgate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;

/**
 * Class loaders that hold a Tollgate of their own, with Hazelcast and the JDK shared from this JVM:
 * how two applications on one server, or two Tollgate versions, meet on one Hazelcast member.
 */
public final class IsolatedTollgate {

    private static final String HIDDEN = "io.tollgate.";

    private IsolatedTollgate() {
    }

    /** @return the jar of Tollgate at wire version 0 (see {@code src/test/resources/wire-v0/README.md}) */
    public static Path wireV0Jar() {
        URL jar = IsolatedTollgate.class.getResource("/wire-v0/tollgate-wire-v0.jar");
        if (jar == null) {
            throw new IllegalStateException("the test resource wire-v0/tollgate-wire-v0.jar is missing");
        }
        return path(jar);
    }

    /** @return the directory or jar this code's {@code type} was loaded from */
    public static Path location(Class<?> type) {
        return path(type.getProtectionDomain().getCodeSource().getLocation());
    }

    /** @return a class loader over {@code roots} that sees no Tollgate class of this JVM's class path */
    public static URLClassLoader load(Path... roots) {
        URL[] urls = new URL[roots.length];
        for (int i = 0; i < roots.length; i++) {
            try {
                urls[i] = roots[i].toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException(roots[i].toString(), e);
            }
        }
        return new URLClassLoader(urls, new WithoutTollgate(IsolatedTollgate.class.getClassLoader()));
    }

    private static Path path(URL url) {
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(url.toString(), e);
        }
    }

    /** Delegates to this JVM's class path, except for Tollgate's own classes and resources. */
    private static final class WithoutTollgate extends ClassLoader {

        WithoutTollgate(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith(HIDDEN)) {
                throw new ClassNotFoundException(name);
            }
            return super.loadClass(name, resolve);
        }

        @Override
        public URL getResource(String name) {
            return name.startsWith(HIDDEN.replace('.', '/')) ? null : super.getResource(name);
        }

        @Override
        public Enumeration<URL> getResources(String name) {
            try {
                return name.startsWith(HIDDEN.replace('.', '/')) ? Collections.emptyEnumeration() : super.getResources(name);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
