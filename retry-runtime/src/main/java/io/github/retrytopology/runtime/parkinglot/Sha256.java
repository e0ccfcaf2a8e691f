package io.github.retrytopology.runtime.parkinglot;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256, which names failure groups and messages without an id. */
final class Sha256 {

    private Sha256() {
    }

    static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
