// Generated from lib/openapi/ by `npm run openapi:types` (openapi-typescript). Do not edit: run the script.
// test/support/openapi-types.test.ts fails when this file no longer matches the document.

export interface paths {
    "/api/marketplace/knowledge-bases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List published knowledge bases (public, cacheable for 30 s, CORS *, limited per client address) */
        get: operations["listKnowledgeBases"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["listKnowledgeBases_preflight"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/knowledge-bases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The knowledge base id (kb_…). */
                id: string;
            };
            cookie?: never;
        };
        /** One published knowledge base with its plans (public, cacheable for 30 s, CORS *, limited per client address) */
        get: operations["getKnowledgeBase"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["getKnowledgeBase_preflight"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/kb/{kb_id}/query": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask a knowledge base a question (API key required; metered)
         * @description Checks run in this order and the first failure answers: 401 missing_api_key; 401 invalid_api_key (scheme, shape, checksum or unknown; malformed keys never reach the database); 403 key_revoked; 404 knowledge_base_not_found; 403 key_scope_mismatch; 403 forbidden (subscription not active, or knowledge base suspended); 429 rate_limit_exceeded; 400 invalid_query (413 payload_too_large for bodies over 16384 bytes); 429 query_cap_exceeded; 502 publisher_error; 504 publisher_timeout. Only a 200 with at least one citation counts against the cap: a unit is reserved before routing and given back when the answer fails or abstains (no citations). Every authenticated request that reaches the rate-limit step counts against the per-minute limit. From the revoked-key check on, responses carry X-RateLimit-* (the limiter state; steps before the limit do not consume) and X-Usage-* (the period usage after counting this request).
         */
        post: operations["queryKnowledgeBase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/kb/{kb_id}/search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The best passages for a query, without an answer (API key required; metered like a query, free when empty) */
        post: operations["searchKnowledgeBase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/kb/{kb_id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        /** Where this key’s subscription stands: usage of the period and the query limit (never counted; 30 per minute per key) */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/kb/{kb_id}/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The knowledge base as a remote MCP server (Streamable HTTP, stateless): tools ask and search, metered per call
         * @description A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call…); see https://modelcontextprotocol.io. Revisions 2026-07-28 (server/discover, no handshake) and, through initialize, 2025-11-25, 2025-06-18 and 2025-03-26. The key and steps 1–6 of the check order are HTTP errors whose body is a JSON-RPC error carrying the error body as data; the rate limit, a bad query and the cap are tool errors inside a 200.
         */
        post: operations["mcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dify/retrieval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Dify External Knowledge API: register <base>/dify in Dify with the Almanac key, and the knowledge base id, slug or publisher/slug as knowledge id
         * @description The key is judged before the body: Dify’s endpoint check (a POST with no body) gets 200 {records: []} for a good key (not counted) and 403 error_code 1002 for a refused one. A trailing slash on the registered base (<base>/dify//retrieval) is tolerated.
         */
        post: operations["difyRetrieval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document (public, cacheable for 5 minutes, CORS *, limited per client address) */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness (the database and the job queue answer) or, with probe=live, liveness (for operators and load balancers) */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers, with no I/O (for restarts by an orchestrator) */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database and the job queue answer, the limiter store is reported (for load balancers) */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @enum {string} */
        Category: "education" | "policy" | "health" | "research" | "legal";
        KnowledgeBaseListItem: {
            id: string;
            title: string;
            /** @description The publisher’s display name. */
            publisher: string;
            summary: string;
            category: components["schemas"]["Category"];
            tags: string[];
            /** @description Subscriptions active now. */
            subscribersCount: number;
            /** @description Successful (200) queries ever. */
            queryVolume: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, e.g. 2026-01-31T12:00:00.000Z
             */
            updatedAt: string;
        };
        KnowledgeBaseList: {
            items: components["schemas"]["KnowledgeBaseListItem"][];
            total: number;
            page: number;
            pageSize: number;
            /** @description ceil(total / pageSize); 0 when nothing matches. */
            totalPages: number;
        };
        Plan: {
            id: string;
            name: string;
            priceCents: number;
            currency: string;
            queriesPerPeriod: number;
            requestsPerMinute: number;
        };
        /** @description The nine listing fields plus description, plans, document count, language, licence and sample questions. */
        KnowledgeBaseDetail: {
            id: string;
            title: string;
            /** @description The publisher’s display name. */
            publisher: string;
            summary: string;
            category: components["schemas"]["Category"];
            tags: string[];
            /** @description Subscriptions active now. */
            subscribersCount: number;
            /** @description Successful (200) queries ever. */
            queryVolume: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, e.g. 2026-01-31T12:00:00.000Z
             */
            updatedAt: string;
            description: string;
            plans: components["schemas"]["Plan"][];
            documentsCount: number;
            language: string;
            licence: string;
            sampleQuestions: string[];
        };
        Citation: {
            document_id: string;
            title: string;
            excerpt: string;
            page: number | null;
        };
        QueryAnswer: {
            answer: string;
            citations: components["schemas"]["Citation"][];
            tokens_used: number;
        };
        SearchResult: {
            document_id: string;
            title: string;
            excerpt: string;
            /** @description 1-based page where the source has pages; null where it has none. */
            page: number | null;
            /** @description The first passage scores 1; the others in proportion to their ranking score, never above the passage before them. */
            score: number;
        };
        SearchResults: {
            results: components["schemas"]["SearchResult"][];
        };
        UsageReport: {
            used: number;
            cap: number;
            remaining: number;
            /**
             * Format: date-time
             * @description When the next billing period starts.
             */
            resets_at: string;
            rate_limit: {
                limit: number;
                remaining: number;
                /** @description Unix seconds. */
                reset: number;
            };
        };
        DifyRecords: {
            records: {
                content: string;
                score: number;
                title: string;
                metadata: {
                    document_id: string;
                    /** @description 1-based page where the source has pages; null where it has none. */
                    page: number | null;
                };
            }[];
        };
        QueryRequest: {
            /** @description Trimmed; not blank; at most 2,000 characters; no control characters but tab, CR and LF. */
            query: string;
        };
        SearchRequest: {
            /** @description Trimmed; not blank; at most 2,000 characters; no control characters but tab, CR and LF. */
            query: string;
            /**
             * @description How many passages: an integer from 1 to 20, default 5.
             * @default 5
             */
            top_k?: number;
        };
        DifyRetrievalRequest: {
            /** @description The knowledge base id, slug or publisher/slug. */
            knowledge_id: string;
            /** @description Trimmed; not blank; at most 2,000 characters; no control characters but tab, CR and LF. */
            query: string;
            retrieval_setting?: {
                /**
                 * @description How many passages: an integer from 1 to 20, default 5.
                 * @default 5
                 */
                top_k?: number;
                /**
                 * @description Passages scoring below it are not records.
                 * @default 0
                 */
                score_threshold?: number;
            };
            /** @description Accepted and ignored: Almanac keeps no document metadata to filter on. */
            metadata_condition?: Record<string, unknown>;
        };
        InvalidParameterError: {
            /** @constant */
            error: "invalid_parameter";
            message: string;
            request_id: string;
        };
        InvalidQueryError: {
            /** @constant */
            error: "invalid_query";
            message: string;
            request_id: string;
        };
        InvalidRequestError: {
            /** @constant */
            error: "invalid_request";
            message: string;
            request_id: string;
        };
        IdempotencyInProgressError: {
            /** @constant */
            error: "idempotency_key_in_progress";
            message: string;
            request_id: string;
        };
        IdempotencyReusedError: {
            /** @constant */
            error: "idempotency_key_reused";
            message: string;
            request_id: string;
        };
        AuthenticationError: {
            /** @enum {string} */
            error: "missing_api_key" | "invalid_api_key";
            message: string;
            request_id: string;
        };
        ForbiddenError: {
            /** @enum {string} */
            error: "key_revoked" | "key_scope_mismatch" | "forbidden";
            message: string;
            request_id: string;
        };
        KnowledgeBaseNotFoundError: {
            /** @constant */
            error: "knowledge_base_not_found";
            message: string;
            request_id: string;
        };
        MethodNotAllowedError: {
            /** @constant */
            error: "method_not_allowed";
            message: string;
            request_id: string;
        };
        PayloadTooLargeError: {
            /** @constant */
            error: "payload_too_large";
            message: string;
            request_id: string;
        };
        RateLimitError: {
            /** @constant */
            error: "rate_limit_exceeded";
            message: string;
            request_id: string;
            retry_after: number;
        };
        QueryCapError: {
            /** @constant */
            error: "query_cap_exceeded";
            message: string;
            request_id: string;
            usage: {
                used: number;
                cap: number;
            };
            /**
             * Format: date-time
             * @description When the next billing period starts.
             */
            resets_at: string;
            /**
             * Format: uri
             * @description The dashboard page of this subscription.
             */
            upgrade_url: string;
        };
        PublisherError: {
            /** @constant */
            error: "publisher_error";
            message: string;
            request_id: string;
        };
        PublisherTimeoutError: {
            /** @constant */
            error: "publisher_timeout";
            message: string;
            request_id: string;
        };
        ServiceUnavailableError: {
            /** @constant */
            error: "service_unavailable";
            message: string;
            request_id: string;
        };
        InternalError: {
            /** @constant */
            error: "internal_error";
            message: string;
            request_id: string;
        };
        Health: {
            /** @enum {string} */
            status: "ok" | "degraded";
            database: {
                ok: boolean;
                /** @enum {string} */
                kind?: "pglite" | "postgres";
                latencyMs?: number;
            };
            /** @enum {string} */
            rateLimiter: "memory" | "redis" | "upstash";
            /** @description False while the limiter store (Redis, Upstash) cannot be reached: every rate limit then passes until it is back. */
            rateLimiterReachable: boolean;
            /** @description The background job queue (a table of the same database): whether it can be read, and its jobs waiting or running. */
            queue: {
                ok: boolean;
                depth?: number;
            };
        };
        Liveness: {
            /** @constant */
            status: "ok";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Correlation id of this request (quote it to support). */
        XRequestId: string;
        /** @description The scheme to authenticate with (RFC 6750); error="invalid_token" when the key sent is malformed or unknown. */
        WwwAuthenticate: "Bearer realm=\"almanac\"" | "Bearer realm=\"almanac\", error=\"invalid_token\"";
        /** @description The scheme, and where the resource’s OAuth metadata is (RFC 9728): agent platforms sign in from there; error="invalid_token" when the key or token sent is malformed, unknown, expired or revoked. */
        McpWwwAuthenticate: string;
        /** @description Requests allowed per minute: for this key (query), or for this client address (the public endpoints). */
        XRateLimitLimit: string;
        /** @description Requests left in the current sliding window. */
        XRateLimitRemaining: string;
        /** @description Unix time (seconds) when the next request slot frees. */
        XRateLimitReset: string;
        /** @description Queries used in the current billing period, after counting this request. Absent on a streamed answer (see its done event) and on a body refused as it is read. */
        XUsageUsed: string;
        /** @description Queries included in the current billing period (absent where X-Usage-Used is). */
        XUsageCap: string;
        /** @description Queries left in the current billing period (absent where X-Usage-Used is). */
        XUsageRemaining: string;
        /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
        IdempotentReplayed: "true";
        /** @description Requests this client address may make to the public endpoints per minute (when the server knows the address). */
        PublicRateLimitLimit: string;
        /** @description Requests left to this client address in the current sliding window. */
        PublicRateLimitRemaining: string;
        /** @description Unix time (seconds) when the next request slot of this client address frees. */
        PublicRateLimitReset: string;
        /** @description Whole seconds (≥ 1) to wait before retrying. */
        RetryAfterRequired: string;
        /** @description Whole seconds (≥ 1) to wait: rate_limit_exceeded and idempotency_key_in_progress. */
        RetryAfter: string;
        /** @description Methods the catalogue serves. */
        AllowCatalog: "GET, HEAD, OPTIONS";
        /** @description The catalogue is public. */
        CorsAny: "*";
        /** @description public, max-age=30, stale-while-revalidate=300 */
        PublicCache: "public, max-age=30, stale-while-revalidate=300";
        /** @description public, max-age=300 */
        DocumentCache: "public, max-age=300";
        /** @description Never cached. */
        NoStore: "no-store";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listKnowledgeBases: {
        parameters: {
            query?: {
                /** @description Full-text search (stemmed, accent- and case-insensitive, last word as prefix; U.S. = US). */
                query?: string;
                /** @description Case-insensitive. */
                category?: "education" | "policy" | "health" | "research" | "legal";
                /** @description An extension: the language of the content (en, es, de, fr, pt-BR…), case-insensitive; matched on its primary subtag, so pt finds pt-BR. */
                language?: string;
                /** @description All must match; repeated (tags=a&tags=b), comma-separated (tags=a,b) or tags[]=a; case-insensitive. */
                tags?: string[];
                /** @description relevance (an extension): title matches first, then the popular order; without query it equals popular. */
                sort?: "popular" | "new" | "updated" | "relevance";
                page?: number;
                /** @description Values above 50 are clamped to 50. */
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results (at most CATALOG_CACHE_TTL_MS old: answers are cached by their canonical parameters) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["PublicRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["PublicRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["PublicRateLimitReset"];
                    "Cache-Control": components["headers"]["PublicCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseList"];
                };
            };
            /** @description A parameter is invalid; the message names it and its allowed values */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["PublicRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["PublicRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["PublicRateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidParameterError"];
                };
            };
            /** @description This client address made more than PUBLIC_RATE_LIMIT_PER_MINUTE requests (300) to the public endpoints in the last minute */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfterRequired"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitError"];
                };
            };
            /** @description A fault of our own */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description Too many catalogue loads are waiting for the database; retry after a second */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["PublicRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["PublicRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["PublicRateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfterRequired"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    listKnowledgeBases_preflight: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Any origin may GET */
            204: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    Allow: components["headers"]["AllowCatalog"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The knowledge base id (kb_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The knowledge base */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["PublicRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["PublicRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["PublicRateLimitReset"];
                    "Cache-Control": components["headers"]["PublicCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseDetail"];
                };
            };
            /** @description The id contains a control character or is not valid Unicode (docs/api.md §7.2) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["PublicRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["PublicRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["PublicRateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidParameterError"];
                };
            };
            /** @description No published knowledge base has this id */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["PublicRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["PublicRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["PublicRateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseNotFoundError"];
                };
            };
            /** @description This client address made more than PUBLIC_RATE_LIMIT_PER_MINUTE requests (300) to the public endpoints in the last minute */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfterRequired"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitError"];
                };
            };
            /** @description A fault of our own */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description Too many catalogue loads are waiting for the database; retry after a second */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["PublicRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["PublicRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["PublicRateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfterRequired"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    getKnowledgeBase_preflight: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The knowledge base id (kb_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Any origin may GET */
            204: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    Allow: components["headers"]["AllowCatalog"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    queryKnowledgeBase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key is answered and stored for 24 hours; the same request again gets the stored answer (Idempotent-Replayed: true) and is not counted. */
                "Idempotency-Key"?: string;
            };
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QueryRequest"];
            };
        };
        responses: {
            /** @description The answer (or, for a retry with an Idempotency-Key, the stored answer). With "Accept: text/event-stream" the answer streams as Server-Sent Events once the cap unit is reserved: citations, delta ({text}) pieces, then done ({tokens_used, usage}) or error (an error body); counted at done. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryAnswer"];
                    "text/event-stream": string;
                };
            };
            /** @description Content-Type not application/json, a body that is not UTF-8 or not a JSON object, query missing/blank/too long or with control characters, or a kb_id with control characters (invalid_query); a malformed Idempotency-Key (invalid_request) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidQueryError"] | components["schemas"]["InvalidRequestError"];
                };
            };
            /** @description No key, or a key that is malformed or unknown */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthenticationError"];
                };
            };
            /** @description Key revoked, issued for another knowledge base, subscription not active or knowledge base suspended */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description No published knowledge base has this id */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseNotFoundError"];
                };
            };
            /** @description A request with this Idempotency-Key is still being answered (retry after a second) */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyInProgressError"];
                };
            };
            /** @description Body over 16384 bytes (counted on the stream) */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description This Idempotency-Key was used with a different request */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyReusedError"];
                };
            };
            /** @description Per-key rate limit (with Retry-After) or the subscription’s cap for the period */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitError"] | components["schemas"]["QueryCapError"];
                };
            };
            /** @description A fault of our own (the query is not counted) */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The publisher’s backend failed (connection, non-2xx, over 1 MiB or schema-breaking); not counted */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublisherError"];
                };
            };
            /** @description The publisher did not answer within the knowledge base’s timeout; not counted */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublisherTimeoutError"];
                };
            };
        };
    };
    searchKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchRequest"];
            };
        };
        responses: {
            /** @description The passages, best first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResults"];
                };
            };
            /** @description A malformed request body (invalid_query) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidQueryError"];
                };
            };
            /** @description No key, or a key that is malformed or unknown */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthenticationError"];
                };
            };
            /** @description Key revoked, issued for another knowledge base, subscription not active or knowledge base suspended */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description No published knowledge base has this id */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseNotFoundError"];
                };
            };
            /** @description Body over 16384 bytes */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Per-key rate limit (with Retry-After) or the subscription’s cap for the period */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitError"] | components["schemas"]["QueryCapError"];
                };
            };
            /** @description A fault of our own (nothing is counted) */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The publisher’s backend failed; not counted */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublisherError"];
                };
            };
            /** @description The publisher did not answer in time; not counted */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublisherTimeoutError"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage report; X-RateLimit-* describe this endpoint’s own limit */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageReport"];
                };
            };
            /** @description The kb_id contains a control character or is not valid Unicode (invalid_query) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidQueryError"];
                };
            };
            /** @description No key, or a key that is malformed or unknown */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthenticationError"];
                };
            };
            /** @description Key revoked, issued for another knowledge base, subscription not active or knowledge base suspended */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description No published knowledge base has this id */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseNotFoundError"];
                };
            };
            /** @description This endpoint’s own per-key limit (with Retry-After) */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitError"];
                };
            };
            /** @description A fault of our own (nothing is counted) */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
        };
    };
    mcp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, unknown>;
            };
        };
        responses: {
            /** @description The JSON-RPC response */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
            /** @description A notification (such as notifications/initialized) was accepted; no body */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not a JSON-RPC message (-32700 or -32600), or on revision 2026-07-28 an unsupported version (-32022, with data.supported), MCP-Protocol-Version or Mcp-Method disagreeing with the body (-32020) or a malformed _meta (-32602): a JSON-RPC error object, as MCP clients expect */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
            /** @description No key, or a key that is malformed or unknown */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "WWW-Authenticate": components["headers"]["McpWwwAuthenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        /** @description The request’s id; null for a batch or a notification. */
                        id: string | number | null;
                        error: {
                            /** @description -32001 for 401, -32003 for 403, -32004 for 404, -32600 for 400. */
                            code: number;
                            message: string;
                            data: components["schemas"]["AuthenticationError"];
                        };
                    };
                };
            };
            /** @description Key revoked, issued for another knowledge base, subscription not active or knowledge base suspended; or an Origin header naming another site (checked before the key) */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    /** @description Requests allowed per minute for this key; absent when the request was refused before the key was looked at. */
                    "X-RateLimit-Limit"?: string;
                    /** @description Requests left in the current sliding window (where X-RateLimit-Limit is sent). */
                    "X-RateLimit-Remaining"?: string;
                    /** @description Unix time (seconds) when the next request slot frees (where X-RateLimit-Limit is sent). */
                    "X-RateLimit-Reset"?: string;
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        /** @description The request’s id; null for a batch or a notification. */
                        id: string | number | null;
                        error: {
                            /** @description -32001 for 401, -32003 for 403, -32004 for 404, -32600 for 400. */
                            code: number;
                            message: string;
                            data: components["schemas"]["ForbiddenError"];
                        };
                    } | {
                        /** @constant */
                        jsonrpc: "2.0";
                        id: string | number | null;
                        error: {
                            /** @description -32000 for a refused Origin, -32601 for an unknown method. */
                            code: number;
                            message: string;
                        };
                    };
                };
            };
            /** @description No published knowledge base has this id; or, on revision 2026-07-28, a method the server does not have (-32601, without X-RateLimit-*) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    /** @description Requests allowed per minute for this key; absent when the request was refused before the key was looked at. */
                    "X-RateLimit-Limit"?: string;
                    /** @description Requests left in the current sliding window (where X-RateLimit-Limit is sent). */
                    "X-RateLimit-Remaining"?: string;
                    /** @description Unix time (seconds) when the next request slot frees (where X-RateLimit-Limit is sent). */
                    "X-RateLimit-Reset"?: string;
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        /** @description The request’s id; null for a batch or a notification. */
                        id: string | number | null;
                        error: {
                            /** @description -32001 for 401, -32003 for 403, -32004 for 404, -32600 for 400. */
                            code: number;
                            message: string;
                            data: components["schemas"]["KnowledgeBaseNotFoundError"];
                        };
                    } | {
                        /** @constant */
                        jsonrpc: "2.0";
                        id: string | number | null;
                        error: {
                            /** @description -32000 for a refused Origin, -32601 for an unknown method. */
                            code: number;
                            message: string;
                        };
                    };
                };
            };
            /** @description Accept does not list both application/json and text/event-stream: a JSON-RPC error object */
            406: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
            /** @description Body over 16384 bytes */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description A fault of our own (nothing is counted) */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
        };
    };
    difyRetrieval: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["DifyRetrievalRequest"];
            };
        };
        responses: {
            /** @description The records, best first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DifyRecords"];
                };
            };
            /** @description A malformed request body (invalid_query) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description 1001 no or a malformed Authorization header, 1002 key refused, 2001 knowledge base not found or not in the key’s scope; otherwise the HTTP status. */
                        error_code: number;
                        error_msg: string;
                        /** @constant */
                        error: "invalid_query";
                        message: string;
                        request_id: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Dify’s own statuses: no or a malformed Authorization header (1001), a key that is unknown, revoked or of an inactive subscription or suspended knowledge base (1002), a key of another knowledge base (2001). X-RateLimit-* and X-Usage-* are sent once the key is known. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description 1001 no or a malformed Authorization header, 1002 key refused, 2001 knowledge base not found or not in the key’s scope; otherwise the HTTP status. */
                        error_code: number;
                        error_msg: string;
                        /** @enum {string} */
                        error: "missing_api_key" | "invalid_api_key" | "key_revoked" | "key_scope_mismatch" | "forbidden";
                        message: string;
                        request_id: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description No published knowledge base has this id */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description 1001 no or a malformed Authorization header, 1002 key refused, 2001 knowledge base not found or not in the key’s scope; otherwise the HTTP status. */
                        error_code: number;
                        error_msg: string;
                        /** @constant */
                        error: "knowledge_base_not_found";
                        message: string;
                        request_id: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Body over 16384 bytes: the body is read before the key is judged (it names the knowledge base), so X-RateLimit-* are not sent */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description 1001 no or a malformed Authorization header, 1002 key refused, 2001 knowledge base not found or not in the key’s scope; otherwise the HTTP status. */
                        error_code: number;
                        error_msg: string;
                        /** @constant */
                        error: "payload_too_large";
                        message: string;
                        request_id: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Per-key rate limit (with Retry-After) or the subscription’s cap for the period */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description 1001 no or a malformed Authorization header, 1002 key refused, 2001 knowledge base not found or not in the key’s scope; otherwise the HTTP status. */
                        error_code: number;
                        error_msg: string;
                        /** @enum {string} */
                        error: "rate_limit_exceeded" | "query_cap_exceeded";
                        message: string;
                        request_id: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A fault of our own (nothing is counted) */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description 1001 no or a malformed Authorization header, 1002 key refused, 2001 knowledge base not found or not in the key’s scope; otherwise the HTTP status. */
                        error_code: number;
                        error_msg: string;
                        /** @constant */
                        error: "internal_error";
                        message: string;
                        request_id: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The publisher’s backend failed; not counted */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description 1001 no or a malformed Authorization header, 1002 key refused, 2001 knowledge base not found or not in the key’s scope; otherwise the HTTP status. */
                        error_code: number;
                        error_msg: string;
                        /** @constant */
                        error: "publisher_error";
                        message: string;
                        request_id: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The publisher did not answer in time; not counted */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "X-Usage-Used": components["headers"]["XUsageUsed"];
                    "X-Usage-Cap": components["headers"]["XUsageCap"];
                    "X-Usage-Remaining": components["headers"]["XUsageRemaining"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description 1001 no or a malformed Authorization header, 1002 key refused, 2001 knowledge base not found or not in the key’s scope; otherwise the HTTP status. */
                        error_code: number;
                        error_msg: string;
                        /** @constant */
                        error: "publisher_timeout";
                        message: string;
                        request_id: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document; its servers[0].url is the base URL of this deployment */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["PublicRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["PublicRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["PublicRateLimitReset"];
                    "Cache-Control": components["headers"]["DocumentCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                        info: Record<string, unknown>;
                        paths: Record<string, unknown>;
                    };
                };
            };
            /** @description This client address made more than PUBLIC_RATE_LIMIT_PER_MINUTE requests (300) to the public endpoints in the last minute */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfterRequired"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitError"];
                };
            };
            /** @description A fault of our own */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description Too many catalogue loads are waiting for the database; retry after a second */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Access-Control-Allow-Origin": components["headers"]["CorsAny"];
                    "X-RateLimit-Limit": components["headers"]["PublicRateLimitLimit"];
                    "X-RateLimit-Remaining": components["headers"]["PublicRateLimitRemaining"];
                    "X-RateLimit-Reset": components["headers"]["PublicRateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfterRequired"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: {
                /** @description live: answer at once, with no I/O (liveness). */
                probe?: "live";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready (or, with probe=live, alive) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"] | components["schemas"]["Liveness"];
                };
            };
            /** @description A fault of our own */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The database or the job queue cannot be read (opening the database has a 2 s budget); the body is the health object, not an error body */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
            /** @description A fault of our own */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description A fault of our own */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The database or the job queue cannot be read; the body is the health object, not an error body */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
}
