package org.dyper.patch;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.InputStream;
import java.io.StringReader;
import java.net.URL;
import java.util.stream.Stream;

import javax.xml.XMLConstants;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.transform.sax.SAXSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;

import org.dyper.patch.xml.ModeReader;
import org.dyper.patch.xml.ModelReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.xml.sax.InputSource;
import org.xml.sax.SAXParseException;
import org.xml.sax.XMLReader;

/** The shipped XSDs accept the library and complete examples that Dyper's readers accept, and reject obvious errors. */
class SchemaTest {
    static final String MODES_XSD = "org/dyper/patch/xsd/dypatch-modes.xsd";
    static final String MODEL_XSD = "org/dyper/patch/xsd/dypatch-model.xsd";

    static Validator validator(String xsd) throws Exception {
        SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        URL url = SchemaTest.class.getClassLoader().getResource(xsd);
        assertNotNull(url, xsd + " is in the jar");
        Schema schema = factory.newSchema(url);
        Validator validator = schema.newValidator();
        validator.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        validator.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        return validator;
    }

    /** Documents reach the validator through a SAX parser that refuses DOCTYPEs, as Dyper's readers do. */
    static SAXSource hardened(InputSource input) throws Exception {
        SAXParserFactory factory = SAXParserFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        XMLReader reader = factory.newSAXParser().getXMLReader();
        return new SAXSource(reader, input);
    }

    static Stream<Arguments> valid() {
        return Stream.of(
                arguments(MODES_XSD, ModeCatalog.LIBRARY_RESOURCE),
                arguments(MODES_XSD, "org/dyper/patch/examples/example-modes.xml"),
                arguments(MODEL_XSD, "org/dyper/patch/examples/example-model.xml"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("valid")
    void validatesAgainstTheSchemaAndTheReader(String xsd, String resource) throws Exception {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            InputSource input = new InputSource(in);
            input.setSystemId(resource);
            validator(xsd).validate(hardened(input));
        }
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            Object read = xsd.equals(MODES_XSD) ? ModeReader.read(resource, in) : ModelReader.read(resource, in);
            assertNotNull(read);
        }
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                arguments(MODES_XSD, "<DYPATCH><DYPATCH_MODE NAME='M'><CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='()'>"
                        + "<ARG TYPE='COUNTER'/></CODE></DYPATCH_MODE></DYPATCH>", "COUNTER"),
                arguments(MODES_XSD, "<DYPATCH><DYPATCH_MODE NAME='M'><INSTRUCTION/></DYPATCH_MODE></DYPATCH>", "INSTRUCTION"),
                arguments(MODEL_XSD, "<MODEL NAME='m'><FOR CLASS='*' METHOD='*'><PATCH WHAT='RETURN' MODE='COUNT'/></FOR></MODEL>", "RETURN"),
                arguments(MODEL_XSD, "<MODEL NAME='m'><FOR CLASS='*' METHOD='*'><PATCH WHAT='CALL' MODE='C'><WHEN CASE='LINE' ARG='1'/></PATCH></FOR></MODEL>", "LINE"),
                arguments(MODEL_XSD, "<!DOCTYPE MODEL [<!ENTITY x 'y'>]><MODEL NAME='&x;'/>", "DOCTYPE"));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("invalid")
    void rejectsWhatTheReaderRejects(String xsd, String xml, String what) throws Exception {
        Validator validator = validator(xsd);
        SAXParseException e = assertThrows(SAXParseException.class,
                () -> validator.validate(hardened(new InputSource(new StringReader(xml)))));
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }
}
