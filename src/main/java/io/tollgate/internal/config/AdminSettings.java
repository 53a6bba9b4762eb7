package io.tollgate.internal.config;

import java.util.Optional;

/**
 * The admin resource's settings.
 *
 * @param enabled whether it answers at all ({@code tollgate.admin.enabled}); off, it answers 404 like a path that
 *                does not exist
 * @param role    the role every caller must be in ({@code tollgate.admin.role}); set whenever it is enabled
 */
public record AdminSettings(boolean enabled, Optional<String> role) {
}
