package org.dyper.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The generated plugin descriptor (what {@code mvn help:describe -Dplugin=org.dyper:dyper-maven-plugin -Ddetail}
 * prints): every goal and every parameter a user can set has a description.
 */
class PluginDescriptorTest {
    private static final Path DESCRIPTOR = Path.of("target/classes/META-INF/maven/plugin.xml");

    @Test
    void everyGoalAndSettableParameterIsDocumented() throws Exception {
        assertTrue(Files.isRegularFile(DESCRIPTOR), DESCRIPTOR + " missing: build with mvn, not the IDE alone");
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        Element plugin = f.newDocumentBuilder().parse(DESCRIPTOR.toFile()).getDocumentElement();
        assertEquals("dyper", text(plugin, "goalPrefix"));
        List<String> goals = new ArrayList<>();
        List<String> undocumented = new ArrayList<>();
        NodeList mojos = plugin.getElementsByTagName("mojo");
        for (int i = 0; i < mojos.getLength(); i++) {
            Element mojo = (Element) mojos.item(i);
            String goal = text(mojo, "goal");
            goals.add(goal);
            if (text(mojo, "description").isBlank()) {
                undocumented.add(goal);
            }
            NodeList params = ((Element) mojo.getElementsByTagName("parameters").item(0)).getElementsByTagName("parameter");
            for (int j = 0; j < params.getLength(); j++) {
                Element p = (Element) params.item(j);
                String description = text(p, "description");
                if (text(p, "editable").equals("true")
                        && (description.isBlank() || description.contains("()") || description.contains("( "))) {
                    undocumented.add(goal + ":" + text(p, "name") + " '" + description + "'");
                }
            }
        }
        assertEquals(List.of("generate", "help", "run", "weave"), goals.stream().sorted().toList());
        assertEquals(List.of(), undocumented);
        assertFalse(Files.readString(DESCRIPTOR).contains("dyper_maven_plugin"), "help goal in a generated package");
    }

    private static String text(Element parent, String child) {
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element e && e.getTagName().equals(child)) {
                return e.getTextContent().trim();
            }
        }
        return "";
    }
}
