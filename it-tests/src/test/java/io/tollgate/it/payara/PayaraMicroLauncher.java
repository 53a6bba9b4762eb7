package io.tollgate.it.payara;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * A Payara Micro instance that deploys and undeploys applications when told to, through Payara Micro's
 * runtime API ({@code PayaraMicroRuntime}; the Arquillian adapter starts one JVM per deployment and cannot).
 * Run as {@code java -cp payara-micro.jar:<this class> io.tollgate.it.payara.PayaraMicroLauncher <Payara Micro
 * options>}: it boots Payara Micro with those options, then reads one command a line from its standard input,
 * {@code deploy <name> <war>}, {@code undeploy <name>} or {@code stop}, and answers each with one line starting
 * with {@value #ANSWER}. The end of its input stops it too. Payara Micro is called by reflection, so that the
 * test class path needs no Payara.
 */
public final class PayaraMicroLauncher {

    /** The start of every answer line. */
    public static final String ANSWER = "[launcher] ";

    private PayaraMicroLauncher() {
    }

    public static void main(String[] args) throws Exception {
        Class<?> micro = Class.forName("fish.payara.micro.PayaraMicro");
        micro.getMethod("main", String[].class).invoke(null, (Object) args);
        Object instance = micro.getMethod("getInstance").invoke(null);
        Object runtime = micro.getMethod("getRuntime").invoke(instance);
        Class<?> api = Class.forName("fish.payara.micro.PayaraMicroRuntime");
        Method deploy = api.getMethod("deploy", String.class, String.class, File.class);
        Method undeploy = api.getMethod("undeploy", String.class);
        Method deployed = api.getMethod("getDeployedApplicationNames");
        Method shutdown = api.getMethod("shutdown");
        System.out.println(ANSWER + "ready " + deployed.invoke(runtime));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null && !line.trim().equals("stop"); line = in.readLine()) {
            String[] words = line.trim().split("\\s+");
            if (words[0].equals("deploy") && words.length == 3) {
                deploy.invoke(runtime, words[1], words[1], new File(words[2]));
                boolean done = ((Collection<?>) deployed.invoke(runtime)).contains(words[1]);
                System.out.println(ANSWER + (done ? "deployed " : "failed to deploy ") + words[1]);
            } else if (words[0].equals("undeploy") && words.length == 2) {
                undeploy.invoke(runtime, words[1]);
                boolean done = !((Collection<?>) deployed.invoke(runtime)).contains(words[1]);
                System.out.println(ANSWER + (done ? "undeployed " : "failed to undeploy ") + words[1]);
            } else {
                System.out.println(ANSWER + "unknown command: " + line);
            }
        }
        System.out.println(ANSWER + "stopping");
        shutdown.invoke(runtime);
        System.exit(0);
    }
}
