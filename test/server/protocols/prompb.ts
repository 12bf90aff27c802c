// Test-only: Prometheus' prompb messages (types.proto, remote.proto: the fields remote write 1.0
// and remote read use) compiled by protobufjs, an implementation independent of svc's codec.
import protobuf from 'protobufjs';

const PROTO = `
syntax = "proto3";
package prometheus;
message WriteRequest { repeated TimeSeries timeseries = 1; }
message TimeSeries { repeated Label labels = 1; repeated Sample samples = 2; }
message Label { string name = 1; string value = 2; }
message Sample { double value = 1; int64 timestamp = 2; }
message ReadRequest { repeated Query queries = 1; }
message Query { int64 start_timestamp_ms = 1; int64 end_timestamp_ms = 2; repeated LabelMatcher matchers = 3; }
message LabelMatcher { enum Type { EQ = 0; NEQ = 1; RE = 2; NRE = 3; } Type type = 1; string name = 2; string value = 3; }
message ReadResponse { repeated QueryResult results = 1; }
message QueryResult { repeated TimeSeries timeseries = 1; }
`;

const root = protobuf.parse(PROTO).root;

/** A prompb message type by name (`WriteRequest`, `ReadResponse`, …). */
export function prompb(name: string): protobuf.Type {
  return root.lookupType(`prometheus.${name}`);
}
