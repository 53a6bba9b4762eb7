package io.tollgate.internal.hazelcast;

import com.hazelcast.config.ClassFilter;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.SerializationConfig;

/**
 * What the members and clients Tollgate configures accept in Java serialization: only what
 * Hazelcast itself sends that way, refusing everything else before any of its code runs.
 *
 * <p>Tollgate's own data never uses Java serialization (bucket state and answers are
 * {@code long[]}, the processors {@code DataSerializable}). Hazelcast uses it for the exception
 * carried by an error response and for the properties in a map configuration added at runtime,
 * so the list is: Hazelcast's own classes (under {@code com.hazelcast.}, but not the libraries it bundles
 * under {@value #BUNDLED}: Jackson, SnakeYAML, JSON, ClassGraph, HikariCP, JCTools, Objenesis) and Tollgate's;
 * the JDK's throwables and what a throwable is
 * made of (stack trace elements, its list of suppressed exceptions); {@link java.util.Properties};
 * and a value type some of Hazelcast's exceptions hold. Whole packages only where
 * nothing in them does more than hold values ({@code java.lang}, {@code java.io},
 * {@code java.nio}, {@code java.time}); elsewhere the classes by name. The other collections of
 * {@code java.util}, {@code java.net.URL} and {@code java.security.SignedObject}, parts of known
 * deserialization attacks, are refused.
 *
 * <p>An error response whose exception is refused cannot be read at all: its caller then waits
 * for Hazelcast's operation timeout instead of getting the error.
 */
public final class JavaSerializationFilter {

    private static final String[] PACKAGES = {
        "java.lang", "java.io", "java.nio", "java.nio.channels", "java.nio.charset", "java.nio.file", "java.time",
        "java.time.format", "java.time.temporal", "java.time.zone",
    };

    private static final String[] PREFIXES = {"com.hazelcast.", "io.tollgate."};

    /** Where Hazelcast bundles the libraries it uses, renamed: none of their classes is what members send. */
    static final String BUNDLED = "com.hazelcast.shaded.";

    private static final String[] CLASSES = {
        // what a throwable is made of: its stack trace and its list of suppressed exceptions
        "[Ljava.lang.StackTraceElement;", "java.util.ArrayList", "java.util.Collections$EmptyList",
        // a value some of Hazelcast's exceptions hold
        "java.util.UUID",
        // the properties of a map's store in a map configuration added at runtime (Tollgate adds its
        // map's settings so to an instance it did not configure); their entries pass this filter too
        "java.util.Properties", "java.util.Hashtable",
        // throwables outside the packages above
        "java.lang.reflect.InvocationTargetException", "java.lang.reflect.UndeclaredThrowableException",
        "java.lang.invoke.WrongMethodTypeException",
        "java.util.ConcurrentModificationException", "java.util.NoSuchElementException", "java.util.EmptyStackException",
        "java.util.InputMismatchException", "java.util.MissingResourceException", "java.util.IllformedLocaleException",
        "java.util.ServiceConfigurationError", "java.util.TooManyListenersException",
        "java.util.InvalidPropertiesFormatException", "java.util.IllegalFormatException", "java.util.FormatterClosedException",
        "java.util.DuplicateFormatFlagsException", "java.util.FormatFlagsConversionMismatchException",
        "java.util.IllegalFormatArgumentIndexException", "java.util.IllegalFormatCodePointException",
        "java.util.IllegalFormatConversionException", "java.util.IllegalFormatFlagsException",
        "java.util.IllegalFormatPrecisionException", "java.util.IllegalFormatWidthException",
        "java.util.MissingFormatArgumentException", "java.util.MissingFormatWidthException",
        "java.util.UnknownFormatConversionException", "java.util.UnknownFormatFlagsException",
        "java.util.concurrent.BrokenBarrierException", "java.util.concurrent.CancellationException",
        "java.util.concurrent.CompletionException", "java.util.concurrent.ExecutionException",
        "java.util.concurrent.RejectedExecutionException", "java.util.concurrent.TimeoutException",
        "java.util.regex.PatternSyntaxException", "java.util.zip.DataFormatException", "java.util.zip.ZipException",
        "java.net.BindException", "java.net.ConnectException", "java.net.HttpRetryException", "java.net.MalformedURLException",
        "java.net.NoRouteToHostException", "java.net.PortUnreachableException", "java.net.ProtocolException",
        "java.net.SocketException", "java.net.SocketTimeoutException", "java.net.URISyntaxException",
        "java.net.UnknownHostException", "java.net.UnknownServiceException",
        "java.security.AccessControlException", "java.security.GeneralSecurityException",
        "java.security.PrivilegedActionException",
    };

    private JavaSerializationFilter() {
    }

    /**
     * @return the filter: only the list above, without Hazelcast's default list (which allows every {@code java*}
     *         class), and never the bundled libraries (a refusal wins over the list)
     */
    public static JavaSerializationFilterConfig create() {
        ClassFilter allowed = new ClassFilter().addPackages(PACKAGES).addPrefixes(PREFIXES).addClasses(CLASSES);
        ClassFilter refused = new ClassFilter().addPrefixes(BUNDLED);
        return new JavaSerializationFilterConfig().setDefaultsDisabled(true).setWhitelist(allowed).setBlacklist(refused);
    }

    /** Sets the filter on {@code config}, unless it has a filter of its own. */
    public static void applyTo(SerializationConfig config) {
        if (config.getJavaSerializationFilterConfig() == null) {
            config.setJavaSerializationFilterConfig(create());
        }
    }
}
