CREATE TABLE "kb_index_stats" (
	"kb_id" text PRIMARY KEY NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"total_length" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_terms" (
	"kb_id" text NOT NULL,
	"lexeme" text NOT NULL,
	"doc_freq" integer NOT NULL,
	CONSTRAINT "kb_terms_kb_id_lexeme_pk" PRIMARY KEY("kb_id","lexeme")
);
--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "lexeme_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "structure" jsonb;--> statement-breakpoint
ALTER TABLE "kb_index_stats" ADD CONSTRAINT "kb_index_stats_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_terms" ADD CONSTRAINT "kb_terms_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;