// Test-only producer: AWS's Glue Schema Registry Kafka serializer (PROTOBUF
// mode, DYNAMIC_MESSAGE, aws-glue-schema-registry, unmodified) against our
// Glue registry and a real broker, for
// tests/integration/test_glue_protobuf_serde.py.
//
//   java -cp '<glue-serde jars>' GsrProtobufProducer.java <bootstrap> <topic>
//        <glue endpoint> <region> <registry> <schema name>
//        <file.desc>:<message name>:<NONE|ZLIB> ...
//
// Each file.desc is a serialized FileDescriptorProto the test builds field by
// field (no protoc); its descriptor is built here with
// Descriptors.FileDescriptor.buildFrom, Google's well-known imports resolved
// to the copies protobuf-java carries. Each argument gets its own serializer,
// which registers that file's schema (the serializer prints the .proto text
// itself) on first use. Credentials come from the environment
// (AWS_ACCESS_KEY_ID, ...), as for any AWS SDK client. stdin: one record per
// line, "<i>\t<message>", where i picks the i-th argument and message is the
// message's wire encoding in base64 (the test encodes it with Python's
// protobuf from the same FileDescriptorProto); it is parsed into a
// DynamicMessage here, which the serializer then serializes and frames itself
// (GSR header, message index, message). stdout: "<partition> <offset>" per
// record, in input order, after every record is acknowledged.
import com.amazonaws.services.schemaregistry.serializers.GlueSchemaRegistryKafkaSerializer;
import com.amazonaws.services.schemaregistry.utils.AWSSchemaRegistryConstants;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class GsrProtobufProducer {
  // The well-known files a test schema may import, as protobuf-java has them.
  private static Descriptors.FileDescriptor wellKnown(String name) {
    switch (name) {
      case "google/protobuf/timestamp.proto":
        return com.google.protobuf.TimestampProto.getDescriptor();
      case "google/protobuf/wrappers.proto":
        return com.google.protobuf.WrappersProto.getDescriptor();
      default:
        throw new IllegalArgumentException("unsupported import " + name);
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 7) {
      System.err.println("usage: GsrProtobufProducer <bootstrap> <topic> <endpoint> <region> "
          + "<registry> <schema name> <file.desc>:<message>:<NONE|ZLIB> ...");
      System.exit(2);
    }
    final String topic = args[1];
    List<Descriptors.Descriptor> types = new ArrayList<>();
    List<GlueSchemaRegistryKafkaSerializer> serializers = new ArrayList<>();
    for (int i = 6; i < args.length; i++) {
      String[] parts = args[i].split(":");
      DescriptorProtos.FileDescriptorProto proto =
          DescriptorProtos.FileDescriptorProto.parseFrom(Files.readAllBytes(Path.of(parts[0])));
      List<Descriptors.FileDescriptor> deps = new ArrayList<>();
      for (String dep : proto.getDependencyList()) deps.add(wellKnown(dep));
      Descriptors.FileDescriptor file = Descriptors.FileDescriptor.buildFrom(
          proto, deps.toArray(new Descriptors.FileDescriptor[0]));
      Descriptors.Descriptor type = file.findMessageTypeByName(parts[1]);
      if (type == null) throw new IllegalArgumentException("no message " + parts[1]);
      types.add(type);
      Map<String, Object> config = new HashMap<>();
      config.put(AWSSchemaRegistryConstants.AWS_ENDPOINT, args[2]);
      config.put(AWSSchemaRegistryConstants.AWS_REGION, args[3]);
      config.put(AWSSchemaRegistryConstants.REGISTRY_NAME, args[4]);
      config.put(AWSSchemaRegistryConstants.SCHEMA_NAME, args[5]);
      config.put(AWSSchemaRegistryConstants.DATA_FORMAT, "PROTOBUF");
      config.put(AWSSchemaRegistryConstants.PROTOBUF_MESSAGE_TYPE, "DYNAMIC_MESSAGE");
      config.put(AWSSchemaRegistryConstants.SCHEMA_AUTO_REGISTRATION_SETTING, true);
      config.put(AWSSchemaRegistryConstants.COMPATIBILITY_SETTING, "BACKWARD");
      config.put(AWSSchemaRegistryConstants.COMPRESSION_TYPE, parts[2]);
      GlueSchemaRegistryKafkaSerializer serializer = new GlueSchemaRegistryKafkaSerializer();
      serializer.configure(config, false);
      serializers.add(serializer);
    }
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props);
         BufferedReader in = new BufferedReader(
             new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isEmpty()) continue;
        int tab = line.indexOf('\t');
        int which = Integer.parseInt(line.substring(0, tab));
        byte[] wire = Base64.getDecoder().decode(line.substring(tab + 1));
        DynamicMessage message = DynamicMessage.parseFrom(types.get(which), wire);
        byte[] value = serializers.get(which).serialize(topic, message);
        sent.add(producer.send(new ProducerRecord<>(topic, value)));
      }
      producer.flush();
      StringBuilder out = new StringBuilder();
      for (Future<RecordMetadata> f : sent) {
        RecordMetadata m = f.get();
        out.append(m.partition()).append(' ').append(m.offset()).append('\n');
      }
      System.out.print(out);
      System.out.flush();
    }
    for (GlueSchemaRegistryKafkaSerializer s : serializers) s.close();
  }
}
