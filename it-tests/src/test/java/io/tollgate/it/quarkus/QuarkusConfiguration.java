package io.tollgate.it.quarkus;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jboss.arquillian.container.spi.ConfigurationException;
import org.jboss.arquillian.container.spi.client.container.ContainerConfiguration;

/** A node of the Quarkus group of {@code arquillian.xml}: the packaged application and how to start it. */
public class QuarkusConfiguration implements ContainerConfiguration {

    private String runJar;
    private String workDir;
    private int httpPort;
    private String javaOptions = "";
    private String systemProperties = "";
    private int startupTimeoutInSeconds = 180;

    @Override
    public void validate() throws ConfigurationException {
        if (runJar == null || !Files.isRegularFile(Path.of(runJar))) {
            throw new ConfigurationException("runJar does not name the application's quarkus-run.jar: " + runJar);
        }
        if (workDir == null || httpPort <= 0) {
            throw new ConfigurationException("workDir and httpPort are required");
        }
    }

    public String getRunJar() {
        return runJar;
    }

    public void setRunJar(String runJar) {
        this.runJar = runJar;
    }

    public String getWorkDir() {
        return workDir;
    }

    public void setWorkDir(String workDir) {
        this.workDir = workDir;
    }

    public int getHttpPort() {
        return httpPort;
    }

    public void setHttpPort(int httpPort) {
        this.httpPort = httpPort;
    }

    public String getJavaOptions() {
        return javaOptions;
    }

    public void setJavaOptions(String javaOptions) {
        this.javaOptions = javaOptions;
    }

    /** {@code -D} options of the application, after the JVM's: its port, its Hazelcast member. */
    public String getSystemProperties() {
        return systemProperties;
    }

    public void setSystemProperties(String systemProperties) {
        this.systemProperties = systemProperties;
    }

    public int getStartupTimeoutInSeconds() {
        return startupTimeoutInSeconds;
    }

    public void setStartupTimeoutInSeconds(int startupTimeoutInSeconds) {
        this.startupTimeoutInSeconds = startupTimeoutInSeconds;
    }
}
