CREATE TABLE "chunk_embeddings" (
	"chunk_id" bigint PRIMARY KEY NOT NULL,
	"kb_id" text NOT NULL,
	"model" text NOT NULL,
	"embedding" real[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chunk_embeddings" ADD CONSTRAINT "chunk_embeddings_chunk_id_chunks_id_fk" FOREIGN KEY ("chunk_id") REFERENCES "public"."chunks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chunk_embeddings_kb_idx" ON "chunk_embeddings" USING btree ("kb_id","model");