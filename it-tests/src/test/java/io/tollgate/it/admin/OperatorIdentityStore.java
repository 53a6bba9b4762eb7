package io.tollgate.it.admin;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.authentication.mechanism.http.BasicAuthenticationMechanismDefinition;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Map;
import java.util.Set;

/**
 * How the admin IT's WAR authenticates its callers, the least a Jakarta EE application needs on both servers:
 * Jakarta Security's HTTP Basic mechanism over an identity store of the application. {@code ops} is in the group
 * {@code tollgate-admin}, {@code user} only in {@code users}; groups are the roles (web.xml declares them).
 */
@ApplicationScoped
@BasicAuthenticationMechanismDefinition(realmName = "tollgate-it")
public class OperatorIdentityStore implements IdentityStore {

    /** Test users: name, then password and groups. */
    private static final Map<String, Map.Entry<String, Set<String>>> USERS = Map.of(
            "ops", Map.entry("ops-secret", Set.of("tollgate-admin")),
            "user", Map.entry("user-secret", Set.of("users")));

    /** Called by the container with the credential of a request that carries one. */
    public CredentialValidationResult validate(UsernamePasswordCredential credential) {
        Map.Entry<String, Set<String>> user = USERS.get(credential.getCaller());
        if (user == null || !credential.compareTo(credential.getCaller(), user.getKey())) {
            return CredentialValidationResult.INVALID_RESULT;
        }
        return new CredentialValidationResult(credential.getCaller(), user.getValue());
    }
}
