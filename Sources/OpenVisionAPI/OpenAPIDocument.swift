import OpenVision

/// The OpenAPI 3 document of `openvision serve`, served at `GET /openapi.yaml`. The same text is
/// docs/openapi.yaml (a test checks they are equal; regenerate it from a running server). The query parameters of
/// `POST /v1/analyze`, `/v1/detect` and `/v1/classify` (request names and every option a client may give) come from
/// the request registry (`RequestKind`, `RequestOption`).
enum OpenAPIDocument {
    /// `requests` and one query parameter per option a client may give, as YAML list items of the analyze operation.
    static var analyzeParameters: String {
        let still = RequestKind.allCases.filter { !$0.isSequence }
        let defaults = RequestKind.stillDefaults.map(\.name).joined(separator: ",")
        return """
                    - name: requests
                      in: query
                      description: >-
                        Comma-separated request names (default \(defaults)). \(RequestKind.listing(still)).
                      schema: {type: string}

            """ + parameters(RequestOption.all)
    }

    /// The query parameters of the endpoint running the kind `name` alone (`/v1/detect`, `/v1/classify`).
    static func parameters(of name: String, modelRequired: Bool, example: String) -> String {
        parameters(RequestKind.named(name)?.options ?? [], modelRequired: modelRequired, example: example)
    }

    /// An image endpoint's `responses:` block: the report (200) and the error body for each of `errors`, indented for
    /// its place under a path's operation; the line that follows starts at the path level.
    static func imageResponses(errors: [Int]) -> String {
        "      responses:\n        \"200\": {$ref: \"#/components/responses/Report\"}\n"
            + errors.map { "        \"\($0)\": {$ref: \"#/components/responses/Error\"}\n" }.joined()
    }

    /// One query parameter per option among `options` that a client may give (`RequestOption.isRemote`).
    static func parameters(_ options: [RequestOption], modelRequired: Bool = false, example: String? = nil) -> String {
        var yaml = ""
        for option in options where option.isRemote {
            var schema: String
            switch option.type {
            case .integer, .number: schema = "type: \(option.type.rawValue)"
            case .string, .list: schema = "type: string"
            }
            if let range = option.range {
                schema +=
                    ", minimum: \(OptionValue.number(range.lowerBound)), maximum: \(OptionValue.number(range.upperBound))"
            }
            if let values = option.allowedValues, option.type == .string {
                schema += ", enum: [\(values.joined(separator: ", "))]"
            }
            let isModel = option.role == .model
            let help =
                isModel
                ? "A model file name listed by GET /v1/models (names only, no paths)."
                    + (example.map { " e.g. \($0)" } ?? "")
                : option.help
            yaml += """
                        - name: \(option.name)
                          in: query\(isModel && modelRequired ? "\n          required: true" : "")
                          description: >-
                            \(help)
                          schema: {\(schema)}\(isModel ? example.map { "\n          example: \($0)" } ?? "" : "")

                """
        }
        return yaml
    }

    static let yaml = """
        openapi: 3.0.3
        info:
          title: OpenVision analysis API
          version: "1.0"
          description: |
            `openvision serve`: Vision requests over HTTP (docs/serve.md). Images go as the raw request body
            (image/*, application/octet-stream) or as the `image` part of multipart/form-data. Errors are
            `{"error": {"code": "...", "message": "..."}}`, unknown paths included (404 `notFound`; a known path
            with another method is 405 `methodNotAllowed` with `Allow`; HEAD is answered wherever GET is). With
            `--api-key`, every path but /healthz and /readyz needs `Authorization: Bearer <key>` (the scheme in any
            case). Every path refuses requests from web pages (any `Origin` header: 403 `forbiddenOrigin`) and, when
            the server is bound to loopback, a `Host` that is not loopback (403 `forbiddenHost`). An image with more
            pixels than its requests may take within `--max-request-memory` is 422 `imageTooLarge`. At the connection
            limit with every connection busy, a new connection is answered 503 `tooManyConnections` and closed.
        servers:
          - url: http://127.0.0.1:8080
        security:
          - bearer: []
        paths:
          /healthz:
            get:
              summary: Liveness (always open)
              security: []
              responses:
                "200":
                  description: The process is serving.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Status"}
                "403": {$ref: "#/components/responses/Error"}
          /readyz:
            get:
              summary: Readiness (always open)
              security: []
              responses:
                "200":
                  description: Listening and accepting requests.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Status"}
                "403": {$ref: "#/components/responses/Error"}
                "503":
                  $ref: "#/components/responses/Error"
          /metrics:
            get:
              summary: Prometheus metrics (text exposition format 0.0.4)
              responses:
                "200":
                  description: Metrics.
                  content:
                    text/plain:
                      schema: {type: string}
                "401": {$ref: "#/components/responses/Error"}
                "403": {$ref: "#/components/responses/Error"}
          /openapi.yaml:
            get:
              summary: This document
              responses:
                "200":
                  description: The OpenAPI document.
                  content:
                    application/yaml:
                      schema: {type: string}
                "401": {$ref: "#/components/responses/Error"}
                "403": {$ref: "#/components/responses/Error"}
          /v1/models:
            get:
              summary: Models in the model search path
              responses:
                "200":
                  description: The installed models and whether each is loaded.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [models]
                        properties:
                          models:
                            type: array
                            items:
                              type: object
                              required: [name, bytes, loaded]
                              properties:
                                name: {type: string, description: "The file name clients pass as `model` (no path is shown)."}
                                bytes: {type: integer}
                                loaded: {type: boolean}
                "401": {$ref: "#/components/responses/Error"}
                "403": {$ref: "#/components/responses/Error"}
          /v1/analyze:
            post:
              summary: Run built-in requests on one image (the JSON of `openvision analyze`)
              parameters:
        \(analyzeParameters)        - name: timings
                  in: query
                  description: Include per-request timings (timingsMs).
                  schema: {type: boolean}
                - name: maps
                  in: query
                  description: >-
                    Include image-valued results (saliency and objectness heat maps, the person mask) as PNG data URLs in
                    their map's png field.
                  schema: {type: boolean}
              requestBody:
                $ref: "#/components/requestBodies/Image"
        \(imageResponses(errors: [400, 401, 403, 404, 408, 413, 415, 422, 503]))  /v1/detect:
            post:
              summary: Detect objects with a model from the model search path
              parameters:
        \(parameters(of: "detect", modelRequired: true, example: "yolo-fastest-1.1.cfg"))      requestBody:
                $ref: "#/components/requestBodies/Image"
        \(imageResponses(errors: [400, 401, 403, 404, 408, 413, 415, 422, 500, 503]))  /v1/classify:
            post:
              summary: Classify the image (default model efficientnet-lite0.onnx)
              parameters:
        \(parameters(of: "classify", modelRequired: false, example: "efficientnet-lite0.onnx"))      requestBody:
                $ref: "#/components/requestBodies/Image"
        \(imageResponses(errors: [400, 401, 403, 404, 408, 413, 415, 422, 500, 503]))components:
          securitySchemes:
            bearer:
              type: http
              scheme: bearer
          requestBodies:
            Image:
              required: true
              description: The encoded image (JPEG, PNG, WebP, BMP, TIFF).
              content:
                application/octet-stream:
                  schema: {type: string, format: binary}
                image/jpeg:
                  schema: {type: string, format: binary}
                image/png:
                  schema: {type: string, format: binary}
                multipart/form-data:
                  schema:
                    type: object
                    required: [image]
                    properties:
                      image: {type: string, format: binary}
          responses:
            Report:
              description: The analysis report (docs/json-schema.md).
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Report"}
            Error:
              description: The error, with the CLI's keys.
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
          schemas:
            Status:
              type: object
              required: [status]
              properties:
                status: {type: string}
            Error:
              type: object
              required: [error]
              properties:
                error:
                  type: object
                  required: [code, message]
                  properties:
                    code: {type: string}
                    message: {type: string}
            Report:
              description: One image's report; every box both normalised (lower-left origin) and in pixels (top-left).
              type: object
              required: [image, width, height]
              properties:
                image: {type: string}
                width: {type: integer}
                height: {type: integer}
                faces: {type: array, items: {type: object}}
                barcodes: {type: array, items: {type: object}}
                rectangles: {type: array, items: {type: object}}
                objects: {type: array, items: {type: object}}
                classifications: {type: array, items: {type: object}}
                errors:
                  type: object
                  additionalProperties:
                    type: object
                    required: [code, message]
                    properties:
                      code: {type: string}
                      message: {type: string}
                warnings: {type: array, items: {type: string}}
                timingsMs: {type: object, additionalProperties: {type: number}}

        """
}
