package org.dyper.cli.ui;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The page: one HTML document with its scripts inlined (the report's flame graph and number formats from the
 * dyper-runtime jar, and the UI's own), served with a Content-Security-Policy that lets it load nothing from the
 * network and run only its own scripts (a fresh nonce per response).
 */
final class Page {
    private static final String RUNTIME = "/org/dyper/runtime/report/";
    private static final String OWN = "/org/dyper/cli/ui/";

    record Rendered(String html, String policy) {
    }

    private final String template;
    private final String scripts;
    private final String css;
    private final SecureRandom random = new SecureRandom();

    Page() {
        template = resource(OWN + "ui.html");
        css = resource(RUNTIME + "page.css") + "\n" + resource(OWN + "ui.css");
        scripts = "window.Dyper = window.Dyper || {};\n" + resource(RUNTIME + "format.js") + "\n"
                + resource(RUNTIME + "flame.js") + "\n" + resource(OWN + "ui.js");
    }

    Rendered render() {
        byte[] b = new byte[16];
        random.nextBytes(b);
        String nonce = HexFormat.of().formatHex(b);
        String html = template.replace("/*@CSS@*/", css).replace("@NONCE@", nonce).replace("/*@JS@*/", scripts);
        String policy = "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'unsafe-inline'; "
                + "img-src data:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
        return new Rendered(html, policy);
    }

    private static String resource(String name) {
        try (InputStream in = Page.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " (a packaging error)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read resource " + name + ": " + e.getMessage(), e);
        }
    }
}
