package io.tollgate.internal.hazelcast;

import com.hazelcast.config.JoinConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How the embedded member finds the others on Kubernetes: Hazelcast's own Kubernetes discovery in its DNS lookup mode,
 * which asks DNS for the addresses of a headless Service (one per ready pod) at each join and merge round, and needs
 * no access to Kubernetes' API. Outside Kubernetes it works the same with any name that resolves to the members.
 */
final class KubernetesDiscovery {

    private KubernetesDiscovery() {
    }

    /** Makes {@code join} look for the members at the addresses {@code serviceDns} resolves to, on {@code port}. */
    static void configure(JoinConfig join, String serviceDns, int port) {
        join.getKubernetesConfig().setEnabled(true)
                .setProperty("service-dns", serviceDns)
                .setProperty("service-port", Integer.toString(port));
    }

    /** @return what {@code serviceDns} resolves to now, for a readiness check and a warning */
    static String describe(String serviceDns) {
        try {
            return "resolves to " + Arrays.stream(InetAddress.getAllByName(serviceDns)).map(InetAddress::getHostAddress)
                    .collect(Collectors.joining(", "));
        } catch (UnknownHostException | SecurityException e) {
            return "does not resolve now";
        }
    }
}
