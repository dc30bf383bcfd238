package io.rdmatrace.analyzer.diff;

/**
 * Two hosts, one per capture, compared with each other.
 *
 * @param role  the role they share, or {@code host#N} when paired by order
 * @param hostA the host id in A, or null when A has no such host
 * @param hostB the host id in B, or null
 */
public record HostPair(String role, String hostA, String hostB) {
}
