// Test-only producer: AWS's Glue Schema Registry Kafka serializer (AVRO mode,
// aws-glue-schema-registry, unmodified) against our Glue registry and a real
// broker, for tests/integration/test_glue_avro_serde.py.
//
//   java -cp '<glue-serde jars>:<classes>' GsrAvroProducer <bootstrap> <topic>
//        <glue endpoint> <region> <registry> <schema name> <schema.avsc>:<NONE|ZLIB> ...
//
// Credentials come from the environment (AWS_ACCESS_KEY_ID, ...), as for any
// AWS SDK client. stdin: one record per line, "<i>\t<record>", where i picks
// the i-th schema argument (each has its own serializer: the serializer
// registers that schema version on first use) and record is the value's Avro
// binary encoding in base64 (the test writes it with fastavro; it is read
// back into a GenericRecord here, which the serializer then serializes and
// frames itself). stdout: "<partition> <offset>" per record, in input order,
// after every record is acknowledged.
import com.amazonaws.services.schemaregistry.serializers.GlueSchemaRegistryKafkaSerializer;
import com.amazonaws.services.schemaregistry.utils.AWSSchemaRegistryConstants;
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
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class GsrAvroProducer {
  public static void main(String[] args) throws Exception {
    if (args.length < 7) {
      System.err.println("usage: GsrAvroProducer <bootstrap> <topic> <endpoint> <region> "
          + "<registry> <schema name> <schema.avsc>:<NONE|ZLIB> ...");
      System.exit(2);
    }
    final String topic = args[1];
    List<Schema> schemas = new ArrayList<>();
    List<GlueSchemaRegistryKafkaSerializer> serializers = new ArrayList<>();
    for (int i = 6; i < args.length; i++) {
      int colon = args[i].lastIndexOf(':');
      String file = args[i].substring(0, colon);
      String compression = args[i].substring(colon + 1);
      schemas.add(new Schema.Parser().parse(Files.readString(Path.of(file))));
      Map<String, Object> config = new HashMap<>();
      config.put(AWSSchemaRegistryConstants.AWS_ENDPOINT, args[2]);
      config.put(AWSSchemaRegistryConstants.AWS_REGION, args[3]);
      config.put(AWSSchemaRegistryConstants.REGISTRY_NAME, args[4]);
      config.put(AWSSchemaRegistryConstants.SCHEMA_NAME, args[5]);
      config.put(AWSSchemaRegistryConstants.DATA_FORMAT, "AVRO");
      config.put(AWSSchemaRegistryConstants.SCHEMA_AUTO_REGISTRATION_SETTING, true);
      config.put(AWSSchemaRegistryConstants.COMPATIBILITY_SETTING, "BACKWARD");
      config.put(AWSSchemaRegistryConstants.COMPRESSION_TYPE, compression);
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
        Schema schema = schemas.get(which);
        byte[] binary = Base64.getDecoder().decode(line.substring(tab + 1));
        GenericRecord record = new GenericDatumReader<GenericRecord>(schema).read(
            null, DecoderFactory.get().binaryDecoder(binary, null));
        byte[] value = serializers.get(which).serialize(topic, record);
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
