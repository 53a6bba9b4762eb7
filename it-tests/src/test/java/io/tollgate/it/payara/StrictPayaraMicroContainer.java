package io.tollgate.it.payara;

import fish.payara.arquillian.container.payara.managed.PayaraMicroContainerConfiguration;
import fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.shrinkwrap.api.Archive;

/**
 * Fills the gaps of fish.payara.arquillian:arquillian-payara-micro-managed (3.1):
 * <ol>
 * <li>a WAR that fails to deploy is NOT reported: Payara Micro keeps running with "Deployed": [] and the
 * adapter returns normally. Here: no deployed servlet = failure; the process is stopped and an Arquillian
 * DeploymentException is thrown whose cause is rebuilt from the server log (e.g.
 * jakarta.enterprise.inject.spi.DefinitionException: ... tollgate.rules.search.rate = 'ten': not a rate), so
 * both {@code @ShouldThrowException} and {@code Deployer.deploy} see it;</li>
 * <li>undeploy only sends SIGTERM (Process.destroy) and returns at once, so the next test class could start a
 * new Payara Micro on the same ports while the old one is still shutting down. Here: wait for the exit, then
 * kill -9 after 30 s;</li>
 * <li>a Payara Micro JVM that exits during start-up (a port in use, a bad option) is only noticed after
 * {@code startupTimeoutInSeconds}. Here: the deployment fails as soon as the process has exited;</li>
 * <li>Payara Micro has no options file. Here: a word {@code @file} in {@code extraMicroOptions} is replaced by
 * the options listed in that file (one or more per line, {@code #} comments; a relative file argument of
 * {@code --prebootcommandfile} and the like is relative to the file's folder), and {@code @file} in
 * {@code cmdOptions} by the JVM options of that java argument file ({@link OptionFiles}).</li>
 * <li>Payara Micro appends its {@code --logtofile} log ({@code <file>.0}, {@code .1} ...) across processes.
 * Here: the files are deleted before each new Payara Micro starts, so the log is the current process's.</li>
 * <li>Payara Micro refuses to start when the folder of {@code --accesslog} does not exist. Here: it is created.</li>
 * </ol>
 */
public class StrictPayaraMicroContainer extends PayaraMicroDeployableContainer {

    private static final Logger LOG = Logger.getLogger(StrictPayaraMicroContainer.class.getName());
    /** "Exception 0 :\njakarta.enterprise.inject.spi.DeploymentException: msg" as logged by Payara/Weld */
    private static final Pattern CDI_CAUSE = Pattern.compile(
            "Exception \\d+ :\\s*\\R([\\w.$]+(?:Exception|Error)): (.*)");
    private static final Pattern LOADING_FAILED = Pattern.compile("Exception while loading the app : (.*)");
    /** the text of the first failure, up to its stack trace / the end of the log record */
    private static final Pattern LOADING_BLOCK = Pattern.compile(
            "Exception while loading the app : (.*?)(?=\\R\\s+at |\\R\\]\\]|\\R\\R|\\z)", Pattern.DOTALL);
    /** The {@code --logtofile} argument, or null. */
    private Path logFile;

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the access log folder " + dir, e);
        }
    }

    @Override
    public void setup(PayaraMicroContainerConfiguration configuration) {
        if (configuration.getExtraMicroOptions() != null) {
            configuration.setExtraMicroOptions(OptionFiles.expand(configuration.getExtraMicroOptions()));
            String[] words = configuration.getExtraMicroOptions().split("\\s+");
            for (int i = 0; i + 1 < words.length; i++) {
                if (words[i].equalsIgnoreCase("--logtofile")) {
                    logFile = Path.of(words[i + 1]);
                }
                if (words[i].equalsIgnoreCase("--accesslog")) {
                    createDirectories(Path.of(words[i + 1])); // Payara Micro refuses to start without it
                }
            }
        }
        if (configuration.getCmdOptions() != null) {
            configuration.setCmdOptions(OptionFiles.expand(configuration.getCmdOptions()));
        }
        super.setup(configuration);
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        long t0 = System.nanoTime();
        deleteLogFiles();
        Thread deploying = Thread.currentThread();
        Process previous = field("payaraMicroProcess", Process.class); // of an earlier deployment, if any
        Thread watchdog = new Thread(() -> interruptWhenTheProcessExits(deploying, previous), "payara-micro-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        ProtocolMetaData md;
        try {
            md = super.deploy(archive);
        } finally {
            watchdog.interrupt();
            try {
                watchdog.join(5_000);
            } catch (InterruptedException ignored) {
                // cleared below
            }
            Thread.interrupted(); // the adapter re-interrupts itself when its wait is cut short
        }
        Process process = field("payaraMicroProcess", Process.class);
        if (process != null && process != previous && !process.isAlive()) {
            stopAndWait();
            throw new DeploymentException("Payara Micro exited with code " + process.exitValue() + " while starting "
                    + archive.getName() + " (see its output above)");
        }
        String log = field("log", String.class);
        boolean deployed = md != null && md.getContexts(HTTPContext.class).stream()
                .anyMatch(c -> !c.getServlets().isEmpty());
        LOG.info(() -> "[it] Payara Micro boot+deploy of " + archive.getName() + " took "
                + (System.nanoTime() - t0) / 1_000_000 + " ms, deployed=" + deployed);
        if (deployed) {
            return md;
        }
        stopAndWait();
        Throwable cause = rebuildCause(log);
        String first = LOADING_FAILED.matcher(log == null ? "" : log).results().map(r -> r.group(1)).findFirst()
                .orElse("no application deployed (see Payara Micro output above)");
        DeploymentException e = new DeploymentException(
                "Payara Micro failed to deploy " + archive.getName() + ": " + first
                        + (cause != null ? " / " + cause.getClass().getName() + ": " + cause.getMessage() : ""));
        if (cause != null) {
            e.initCause(cause);
        }
        throw e;
    }

    /** Deletes {@code <logFile>.<n>} (and its lock file) as Payara Micro's file handler names them. */
    private void deleteLogFiles() {
        if (logFile == null || logFile.getParent() == null || !Files.isDirectory(logFile.getParent())) {
            return;
        }
        Pattern ours = Pattern.compile(Pattern.quote(logFile.getFileName().toString()) + "\\.\\d+(\\.lck)?");
        try (var files = Files.list(logFile.getParent())) {
            for (Path file : files.filter(f -> ours.matcher(f.getFileName().toString()).matches()).toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the old Payara Micro log " + logFile, e);
        }
    }

    /** Interrupts the deploying thread (waiting for Payara Micro to report) once the Payara Micro JVM has exited. */
    private void interruptWhenTheProcessExits(Thread deploying, Process previous) {
        try {
            Process process = null;
            while (process == null || process == previous) {
                Thread.sleep(100);
                process = field("payaraMicroProcess", Process.class);
            }
            process.waitFor();
            Thread.sleep(500); // let the adapter read the last output
            LOG.warning("[it] Payara Micro pid " + process.pid() + " exited with code " + process.exitValue()
                    + " before it reported a deployment");
            deploying.interrupt();
        } catch (InterruptedException done) {
            // the deployment finished first
        }
    }

    @Override
    public void undeploy(Archive<?> archive) throws DeploymentException {
        super.undeploy(archive); // Process.destroy() = SIGTERM, no wait
        stopAndWait();
    }

    private void stopAndWait() {
        Process p = field("payaraMicroProcess", Process.class);
        if (p == null) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                LOG.warning("[it] Payara Micro pid " + p.pid() + " did not stop in 30 s, killing it");
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException ie) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        LOG.info(() -> "[it] Payara Micro pid " + p.pid() + " stopped in " + (System.nanoTime() - t0) / 1_000_000
                + " ms (exit " + (p.isAlive() ? "?" : p.exitValue()) + ")");
    }

    /**
     * Rebuilds the CDI exception from Payara's log, the way the Liberty arquillian-support feature does:
     * <ul>
     * <li>"Exception while loading the app : CDI definition failure:Exception List with 1 exceptions:\nException 0 :\n
     * jakarta.enterprise.inject.spi.DeploymentException: msg" (AfterBeanDiscovery.addDefinitionError) becomes
     * jakarta.enterprise.inject.spi.DefinitionException(whole text) caused by the listed exception;</li>
     * <li>"Exception while loading the app : CDI deployment failure:msg -- cause msg"
     * (AfterDeploymentValidation.addDeploymentProblem) becomes jakarta.enterprise.inject.spi.DeploymentException(msg).</li>
     * </ul>
     * Anything else becomes a RuntimeException with the logged text.
     */
    static Throwable rebuildCause(String log) {
        if (log == null) {
            return null;
        }
        Matcher m = LOADING_BLOCK.matcher(log);
        if (!m.find()) {
            return null;
        }
        String text = m.group(1).trim();
        Throwable inner = null;
        Matcher listed = CDI_CAUSE.matcher(text);
        if (listed.find()) {
            inner = instantiate(listed.group(1), listed.group(2).trim(), null);
        }
        if (text.startsWith("CDI definition failure:")) {
            return instantiate("jakarta.enterprise.inject.spi.DefinitionException",
                    text.substring("CDI definition failure:".length()), inner);
        }
        if (text.startsWith("CDI deployment failure:")) {
            return instantiate("jakarta.enterprise.inject.spi.DeploymentException",
                    text.substring("CDI deployment failure:".length()), inner);
        }
        return instantiate("java.lang.RuntimeException", text, inner);
    }

    private static Throwable instantiate(String type, String msg, Throwable cause) {
        Throwable t;
        try {
            Class<?> c = Class.forName(type, false, StrictPayaraMicroContainer.class.getClassLoader());
            Constructor<?> k = c.getConstructor(String.class);
            t = (Throwable) k.newInstance(msg);
        } catch (ReflectiveOperationException | ClassCastException | LinkageError ex) {
            t = new RuntimeException(type + ": " + msg);
        }
        if (cause != null) {
            t.initCause(cause);
        }
        return t;
    }

    private <T> T field(String name, Class<T> type) {
        try {
            Field f = PayaraMicroDeployableContainer.class.getDeclaredField(name);
            f.setAccessible(true);
            return type.cast(f.get(this));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("arquillian-payara-micro-managed changed: no field " + name, e);
        }
    }
}
