package org.netnslab.cluster;

import com.typesafe.config.Config;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;

/**
 * The TLS transport's key and trust stores opened before the node starts, as Akka's ConfigSSLEngineProvider will
 * open them: a wrong password or a store that is no key store is then one line naming the key, where Akka would fail
 * its transport's actor with stack traces and leave the node waiting.
 */
final class TlsStores {
    private static final String ENGINE = "akka.remote.artery.ssl.config-ssl-engine.";

    private TlsStores() {}

    /**
     * A node's own certificate outside its validity dates is refused by every peer, whose alert says only that it did
     * not accept it (certificate_unknown): said as the node starts, with the dates, when no key of the store is current.
     *
     * @return why the entry's certificate is outside its dates, naming the store, the entry and its dates; null when
     *     it is current (or not an X.509 certificate)
     */
    private static String outsideDates(String path, String alias, java.security.cert.Certificate cert) {
        if (!(cert instanceof java.security.cert.X509Certificate x)) {
            return null;
        }
        try {
            x.checkValidity();
            return null;
        } catch (java.security.cert.CertificateExpiredException
                | java.security.cert.CertificateNotYetValidException e) {
            return ENGINE + "key-store: the certificate of '" + alias + "' in '" + path + "' is valid from "
                    + x.getNotBefore().toInstant() + " to " + x.getNotAfter().toInstant()
                    + ", not now: every peer would refuse it; give this node a current one (docs/parallel-runs.md)";
        }
    }

    /**
     * Opens {@code store} ({@code key-store} or {@code trust-store}) with its password, and for the key store each
     * private key with {@code key-password}.
     *
     * @param c the node's configuration (Artery's TLS keys resolved)
     * @param store which store
     * @throws IllegalArgumentException naming the store's key, its file and the password key when it cannot be opened
     */
    static void open(Config c, String store) {
        String path = c.getString(ENGINE + store);
        String passwordKey = ENGINE + store + "-password";
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(in, c.getString(passwordKey).toCharArray());
            if (store.equals("key-store")) {
                passwordKey = ENGINE + "key-password";
                char[] keyPassword = c.getString(passwordKey).toCharArray();
                String outdated = null; // the first key whose certificate is outside its dates
                boolean anyCurrent = false;
                boolean anyKey = false;
                for (String alias : Collections.list(ks.aliases())) {
                    if (ks.isKeyEntry(alias)) {
                        anyKey = true;
                        ks.getKey(alias, keyPassword);
                        String why = outsideDates(path, alias, ks.getCertificate(alias));
                        anyCurrent |= why == null;
                        outdated = outdated == null ? why : outdated;
                    }
                }
                if (!anyKey) { // certificates only (a trust store given as the key store): nothing to prove who it is
                    throw new IllegalArgumentException(ENGINE + store + ": '" + path + "' holds no private key, only"
                            + " certificates (a trust store?): a node's key store holds its own key and certificate,"
                            + " made as docs/parallel-runs.md shows");
                }
                if (outdated != null && !anyCurrent) { // a store that also holds a current key (a rotation) is fine
                    throw new IllegalArgumentException(outdated);
                }
            }
        } catch (IOException | GeneralSecurityException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            // the JDK says a wrong password in several ways (a bad MAC, a padding error): one case here
            boolean password = root instanceof java.security.UnrecoverableKeyException
                    || root instanceof javax.crypto.BadPaddingException
                    || String.valueOf(e.getMessage()).contains("password");
            if (!password) { // a folder, a certificate or another file: no password would open it
                throw new IllegalArgumentException(
                        ENGINE + store + ": '" + path + "' is not a key store (a PKCS12 or JKS file, made as"
                                + " docs/parallel-runs.md shows): "
                                + (Files.isDirectory(Path.of(path))
                                        ? "it is a folder"
                                        : e.getMessage() != null
                                                ? e.getMessage()
                                                : root.getClass().getSimpleName()),
                        e);
            }
            throw new IllegalArgumentException(
                    ENGINE + store + ": cannot open '" + path + "' with " + passwordKey + " (the password does not"
                            + " open it): check that password (docs/parallel-runs.md sets it from"
                            + " NETNS_LAB_KEYSTORE_PASSWORD or NETNS_LAB_TRUSTSTORE_PASSWORD)",
                    e);
        }
    }
}
